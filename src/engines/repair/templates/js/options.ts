// "Option X is ignored": an `if` that must also consult an option the failing tests pass
// (`if (code === CHAR_EXCLAMATION_MARK && index === start)` → `... && !opts.nonegate`), read from the
// options object the file already reads (`opts`, `options`, `this.options`). The names come from the
// failing tests (option-names.ts): an option the code never read before is what such a fix adds.
import { isNode, walk, type AstNode } from './ast.ts';
import { replaceNode, text, type JsTemplate, type SiteContext } from './mutation.ts';

const OPTION_OBJECTS = /^(?:this\.)?(?:opts|options|config|settings)$/;

const receiversByFile = new WeakMap<AstNode, string[]>();

/** The options objects the file reads members of, as written (`opts`, `this.options`). */
function optionObjects(site: SiteContext): string[] {
  let found = receiversByFile.get(site.program);
  if (!found) {
    const seen = new Set<string>();
    walk(site.program, (n) => {
      if (n.type === 'MemberExpression' && !n.computed && isNode(n.object) && (n.object.type === 'Identifier' || n.object.type === 'MemberExpression')) {
        const raw = site.source.slice(n.object.start, n.object.end);
        if (OPTION_OBJECTS.test(raw)) seen.add(raw);
      }
    });
    found = [...seen].sort();
    receiversByFile.set(site.program, found);
  }
  return found;
}

export const honorOption: JsTemplate = (site) => {
  const { node } = site;
  if (node.type !== 'IfStatement' || !isNode(node.test) || site.optionNames.length === 0) return [];
  const test = node.test;
  const raw = text(site, test);
  // The option first, as a person writes a switch that turns a behaviour off (`!opts.nonegate && ...`).
  const right = (test.type === 'LogicalExpression' && test.operator !== '&&') || test.type === 'ConditionalExpression' || test.type === 'AssignmentExpression' ? `(${raw})` : raw;
  return optionObjects(site).flatMap((object) =>
    site.optionNames
      .map((name) => `${object}.${name}`)
      .filter((flag) => !raw.includes(flag))
      .flatMap((flag) => [`!${flag}`, flag].map((conjunct) => ({ template: 'honor-option' as const, edits: [replaceNode(test, `${conjunct} && ${right}`)], description: `added \`${conjunct} &&\` (an option the failing tests pass) to \`${raw.slice(0, 40)}\`` }))),
  );
};
