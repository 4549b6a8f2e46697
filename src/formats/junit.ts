// JUnit XML (the de-facto format of Surefire, pytest --junitxml, jest-junit, vitest's junit reporter, ...).
import { createRequire } from 'node:module';
import type { XMLParser as XMLParserClass } from 'fast-xml-parser';
import type { TestCaseResult, TestReport } from '../core/test-report.ts';
import { buildReport } from './report-builder.ts';

type Node = Record<string, unknown>;
const asArray = (v: unknown): Node[] => (Array.isArray(v) ? (v as Node[]) : v && typeof v === 'object' ? [v as Node] : []);
const text = (v: unknown): string => {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object') {
    const n = v as Node;
    return [n['@_message'], n['#text']].filter((x) => typeof x === 'string').join('\n');
  }
  return '';
};

/**
 * The XML parser, loaded on the first report that needs it, from its one-file CommonJS build: its
 * ES modules cost ~60 ms of every fixloop start, and most runs read no JUnit report.
 */
let parserClass: typeof XMLParserClass | null = null;
function xmlParser(): typeof XMLParserClass {
  parserClass ??= (createRequire(import.meta.url)('fast-xml-parser') as { XMLParser: typeof XMLParserClass }).XMLParser;
  return parserClass;
}

export function parseJunit(xml: string): TestReport | null {
  if (!/<testsuites?\b|<testcase\b/.test(xml)) return null;
  let doc: Node;
  try {
    doc = new (xmlParser())({ ignoreAttributes: false, attributeNamePrefix: '@_', processEntities: true }).parse(xml) as Node;
  } catch {
    return null;
  }
  const tests: TestCaseResult[] = [];
  const visitSuite = (suite: Node, parents: string[]) => {
    const name = typeof suite['@_name'] === 'string' ? suite['@_name'] : '';
    const here = name ? [...parents, name] : parents;
    for (const child of asArray(suite.testsuite)) visitSuite(child, here);
    for (const tc of asArray(suite.testcase)) {
      const caseName = String(tc['@_name'] ?? '');
      const classname = typeof tc['@_classname'] === 'string' ? tc['@_classname'] : '';
      const failure =
        asArray(tc.failure)[0] ??
        asArray(tc.error)[0] ??
        (typeof tc.failure === 'string' || typeof tc.error === 'string' ? { '#text': tc.failure ?? tc.error } : undefined);
      const skipped = 'skipped' in tc;
      const test: TestCaseResult = {
        id: [classname || here.join(' > '), caseName].filter(Boolean).join(' > '),
        name: caseName,
        status: failure ? 'failed' : skipped ? 'skipped' : 'passed',
      };
      if (typeof tc['@_file'] === 'string') test.file = tc['@_file'];
      const time = Number(tc['@_time']);
      if (Number.isFinite(time)) test.durationMs = Math.round(time * 1000);
      if (failure) {
        const body = text(failure);
        test.message = (typeof failure['@_message'] === 'string' ? failure['@_message'] : (body.split('\n')[0] ?? '')).slice(
          0,
          2000,
        );
        test.stack = typeof failure['#text'] === 'string' ? failure['#text'] : body;
      }
      tests.push(test);
    }
  };
  for (const root of asArray(doc.testsuites)) visitSuite(root, []);
  for (const suite of asArray(doc.testsuite)) visitSuite(suite, []);
  return buildReport('junit', tests);
}
