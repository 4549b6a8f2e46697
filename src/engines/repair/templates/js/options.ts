// "Option X is ignored": an `if` that must also consult an option the failing tests pass
// (`if (code === CHAR_EXCLAMATION_MARK && index === start)` → `... && !opts.nonegate`), read from the
// options object the file already reads (`opts`, `options`, `this.options`). The names come from the
// failing tests (option-names.ts): an option the code never read before is what such a fix adds.
// Or the options never reach the function that reads them: a call leaves out the options parameter
// its callee declares (`utils.basename(input)` of `basename = (path, { windows } = {})`).
import { isJsNode, type JsNode, walkJs, WITH_TYPES } from '../../../../core/js-tree.ts';
import { replaceNode, text, type JsTemplate, type Mutation, type SiteContext } from './mutation.ts';
import { namesInScope } from './scope.ts';
import { OPTIONS_NAMES } from './declared-functions.ts';

const OPTION_OBJECTS = new RegExp(`^(?:this\\.)?${OPTIONS_NAMES}$`);

const receiversByFile = new WeakMap<JsNode, string[]>();

/** The options objects the file reads members of, as written (`opts`, `this.options`). */
function optionObjects(site: SiteContext): string[] {
  let found = receiversByFile.get(site.program);
  if (!found) {
    const seen = new Set<string>();
    walkJs(
      site.program,
      (n) => {
        if (
          n.type === 'MemberExpression' &&
          !n.computed &&
          isJsNode(n.object) &&
          (n.object.type === 'Identifier' || n.object.type === 'MemberExpression')
        ) {
          const raw = site.source.slice(n.object.start, n.object.end);
          if (OPTION_OBJECTS.test(raw)) seen.add(raw);
        }
      },
      WITH_TYPES,
    );
    found = [...seen].sort();
    receiversByFile.set(site.program, found);
  }
  return found;
}

export const honorOption: JsTemplate = (site) => {
  const { node } = site;
  if (node.type !== 'IfStatement' || !isJsNode(node.test) || site.optionNames.length === 0) return [];
  const test = node.test;
  const raw = text(site, test);
  // The option first, as a person writes a switch that turns a behaviour off (`!opts.nonegate && ...`).
  const right =
    (test.type === 'LogicalExpression' && test.operator !== '&&') ||
    test.type === 'ConditionalExpression' ||
    test.type === 'AssignmentExpression'
      ? `(${raw})`
      : raw;
  return optionObjects(site).flatMap((object) =>
    site.optionNames
      .map((name) => `${object}.${name}`)
      .filter((flag) => !raw.includes(flag))
      .flatMap((flag) =>
        [`!${flag}`, flag].map((conjunct) => ({
          template: 'honor-option' as const,
          edits: [replaceNode(test, `${conjunct} && ${right}`)],
          description: `added \`${conjunct} &&\` (an option the failing tests pass) to \`${raw.slice(0, 40)}\``,
        })),
      ),
  );
};

const METHOD_OWNERS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ObjectMethod', 'ClassMethod', 'ClassPrivateMethod']);

/** The options objects a call at this site can pass: the file's options objects that are in scope here. */
function optionsInScope(site: SiteContext): string[] {
  const { values } = namesInScope(site.program, site.ancestors, site.node.start);
  const inMethod = site.ancestors.some((a) => METHOD_OWNERS.has(a.type));
  const objects = new Set(values.filter((name) => OPTION_OBJECTS.test(name)));
  for (const object of optionObjects(site)) if (object.startsWith('this.') && inMethod) objects.add(object);
  return [...objects].sort();
}

const packagesByFile = new WeakMap<JsNode, Set<string>>();

/** Names the file binds to a package it imports (`const path = require('path')`, `import fs from 'node:fs'`): not the repository's functions. */
function packageBindings(program: JsNode): Set<string> {
  let names = packagesByFile.get(program);
  if (names) return names;
  const found = new Set<string>();
  const isPackage = (spec: unknown) => typeof spec === 'string' && !spec.startsWith('.') && !spec.startsWith('/');
  walkJs(
    program,
    (n) => {
      if (n.type === 'ImportDeclaration' && isJsNode(n.source) && isPackage(n.source.value)) {
        for (const specifier of n.specifiers as JsNode[])
          if (isJsNode(specifier.local)) found.add(specifier.local.name as string);
      }
      if (
        n.type === 'VariableDeclarator' &&
        isJsNode(n.id) &&
        n.id.type === 'Identifier' &&
        isJsNode(n.init) &&
        n.init.type === 'CallExpression'
      ) {
        const [spec] = n.init.arguments as JsNode[];
        if (
          isJsNode(n.init.callee) &&
          n.init.callee.name === 'require' &&
          spec?.type === 'StringLiteral' &&
          isPackage(spec.value)
        )
          found.add(n.id.name as string);
      }
    },
    WITH_TYPES,
  );
  names = found;
  packagesByFile.set(program, names);
  return names;
}

/** The name a call's callee is declared by, unless it belongs to an imported package (`path.basename` is Node's). */
function calleeName(callee: unknown, program: JsNode): string | null {
  if (!isJsNode(callee)) return null;
  if (callee.type === 'Identifier') return packageBindings(program).has(callee.name as string) ? null : (callee.name as string);
  if (
    (callee.type === 'MemberExpression' || callee.type === 'OptionalMemberExpression') &&
    !callee.computed &&
    isJsNode(callee.property) &&
    callee.property.type === 'Identifier'
  ) {
    if (
      isJsNode(callee.object) &&
      callee.object.type === 'Identifier' &&
      packageBindings(program).has(callee.object.name as string)
    )
      return null;
    return callee.property.name as string;
  }
  return null;
}

/**
 * A call that leaves out the options parameter of the function it calls (declared-functions.ts),
 * given the options in scope: when that parameter destructures an option the failing tests pass, or,
 * for a plain `options` parameter, when the failing tests pass options at all.
 */
export const forwardOptions: JsTemplate = (site) => {
  const { node } = site;
  if ((node.type !== 'CallExpression' && node.type !== 'OptionalCallExpression') || site.optionNames.length === 0) return [];
  const name = calleeName(node.callee, site.program);
  const args = node.arguments as JsNode[];
  if (name === null || args.some((a) => a.type === 'SpreadElement')) return [];
  // The names each matching declaration's left-out options parameter destructures (none: a plain `options`).
  const omitted = (site.declared.get(name) ?? []).flatMap((params) => {
    const next = params[args.length];
    return next?.kind === 'options' && (next.names.length === 0 || next.names.some((n) => site.optionNames.includes(n)))
      ? [next.names]
      : [];
  });
  const [first] = omitted;
  if (!first) return [];
  const passed = new Set(args.map((a) => text(site, a)));
  const last = args.at(-1);
  // After the last argument, or inside the empty parentheses.
  const at = last ? last.end : node.end - 1;
  const parameter = first.length > 0 ? `{ ${first.join(', ')} }` : 'options';
  return optionsInScope(site)
    .filter((object) => !passed.has(object))
    .map((object): Mutation => ({
      template: 'honor-option',
      edits: [{ start: at, end: at, text: last ? `, ${object}` : object }],
      description: `passed \`${object}\` on to \`${text(site, node.callee as JsNode).slice(0, 40)}(…)\`, whose ${parameter} parameter the call left out`,
    }));
};
