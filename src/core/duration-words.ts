// A duration as the reports and the assessment's own words give it: one decimal of seconds.

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
