// action.yml against GitHub's metadata syntax for actions (docs.github.com: "Metadata syntax
// reference"), written here as a zod schema: required name, description and runs; inputs with a
// description; composite outputs with a value; composite steps that either `run` (with a `shell`,
// which composite steps must name) or `uses` another action. Plus the wiring to `fixloop action`.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const ID = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const COLORS = ['white', 'black', 'yellow', 'blue', 'green', 'orange', 'red', 'purple', 'gray-dark'] as const;

const input = z.strictObject({
  description: z.string().min(1),
  required: z.boolean().optional(),
  default: z.string().optional(),
  deprecationMessage: z.string().optional(),
});

const compositeStep = z
  .strictObject({
    name: z.string().optional(),
    id: z.string().regex(ID).optional(),
    if: z.union([z.string(), z.boolean()]).optional(),
    run: z.string().optional(),
    shell: z.string().optional(),
    uses: z.string().optional(),
    with: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
    env: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
    'working-directory': z.string().optional(),
    'continue-on-error': z.union([z.string(), z.boolean()]).optional(),
  })
  .refine((s) => (s.run === undefined) !== (s.uses === undefined), { message: 'a step either runs a command or uses an action' })
  .refine((s) => s.run === undefined || s.shell !== undefined, { message: 'a composite step with `run` must name its `shell`' })
  .refine((s) => s.uses === undefined || (s.shell === undefined && s['working-directory'] === undefined), {
    message: '`shell` and `working-directory` go with `run` only',
  });

const runs = z.discriminatedUnion('using', [
  z.strictObject({ using: z.literal('composite'), steps: z.array(compositeStep).min(1) }),
  z.strictObject({
    using: z.enum(['node20', 'node24']),
    main: z.string(),
    pre: z.string().optional(),
    'pre-if': z.string().optional(),
    post: z.string().optional(),
    'post-if': z.string().optional(),
  }),
  z.strictObject({
    using: z.literal('docker'),
    image: z.string(),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
    entrypoint: z.string().optional(),
    'pre-entrypoint': z.string().optional(),
    'post-entrypoint': z.string().optional(),
  }),
]);

const metadata = z
  .strictObject({
    name: z.string().min(1),
    description: z.string().min(1),
    author: z.string().optional(),
    inputs: z.record(z.string().regex(ID), input).optional(),
    outputs: z
      .record(z.string().regex(ID), z.strictObject({ description: z.string().min(1), value: z.string().optional() }))
      .optional(),
    runs,
    branding: z.strictObject({ icon: z.string().optional(), color: z.enum(COLORS).optional() }).optional(),
  })
  // A composite action's outputs say where each value comes from.
  .refine((m) => m.runs.using !== 'composite' || Object.values(m.outputs ?? {}).every((o) => o.value !== undefined), {
    message: 'composite outputs need a `value`',
  });

const raw = parse(readFileSync(new URL('../../action.yml', import.meta.url), 'utf8')) as unknown;

describe('action.yml', () => {
  it('follows the metadata syntax for actions', () => {
    const result = metadata.safeParse(raw);
    expect(result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([]);
  });

  it('is refused by the same schema when a composite step runs without a shell, or an input has no description', () => {
    const broken = structuredClone(raw) as {
      runs: { steps: Array<Record<string, unknown>> };
      inputs: Record<string, Record<string, unknown>>;
    };
    const step = broken.runs.steps.find((s) => s.run !== undefined);
    delete step?.shell;
    expect(metadata.safeParse(broken).success).toBe(false);
    const noDescription = structuredClone(raw) as typeof broken;
    delete noDescription.inputs['github-token']?.description;
    expect(metadata.safeParse(noDescription).success).toBe(false);
  });

  it("runs `fixloop action` with Node 24, the token in the environment, and maps the step's outputs", () => {
    const action = metadata.parse(raw);
    if (action.runs.using !== 'composite') throw new Error('fixloop is a composite action');
    const steps = action.runs.steps;
    expect(steps.some((s) => s.uses?.startsWith('actions/setup-node@') && String(s.with?.['node-version']) === '24')).toBe(true);
    const main = steps.find((s) => s.id === 'fixloop');
    expect(main?.run?.trim()).toMatch(/bin\/fixloop\.js" action$/);
    expect(main?.env?.GITHUB_TOKEN).toBe('${{ inputs.github-token }}');
    expect(action.inputs?.['github-token']?.default).toBe('${{ github.token }}');
    // Every input reaches the command (composite actions get no INPUT_* variables of their own).
    const handedOver = JSON.stringify(steps);
    for (const name of Object.keys(action.inputs ?? {})) expect(handedOver).toContain(`inputs.${name}`);
    for (const name of ['status', 'pull-request-url', 'run-id', 'assessment'])
      expect(action.outputs?.[name]?.value).toBe(`\${{ steps.fixloop.outputs.${name} }}`);
    // The token is never put on a command line or in a URL by the action itself.
    expect(steps.every((s) => !s.run?.includes('github-token') && !s.run?.includes('GITHUB_TOKEN'))).toBe(true);
  });
});
