// Method chains: a link the chain lacks. Real fixes add a step to a pipeline of calls (in
// bench/real: ufo's query string that joined the empty items of its parts,
// `.filter(Boolean)` before `.join("&")`; ufo's encoder that left `/` unencoded, a `.replace(SLASH_RE,
// "%2F")` the same file already used elsewhere). What the added link holds comes from the file
// itself or is the language's idiom, never invented (the plastic-surgery hypothesis: the ingredients
// of a fix are usually in the program already).
import { isJsNode, type JsNode, walkJs, WITH_TYPES } from '../../../../core/js-tree.ts';
import { text, type JsTemplate, type Mutation, type SiteContext } from './mutation.ts';

/** Most links borrowed for one chain: the most used first. */
const MAX_BORROWED = 12;

function memberCall(node: JsNode): { object: JsNode; property: JsNode; name: string } | null {
  if (node.type !== 'CallExpression' || !isJsNode(node.callee)) return null;
  const callee = node.callee;
  if (
    callee.type !== 'MemberExpression' ||
    callee.computed ||
    !isJsNode(callee.object) ||
    !isJsNode(callee.property) ||
    callee.property.type !== 'Identifier'
  )
    return null;
  return { object: callee.object, property: callee.property, name: callee.property.name as string };
}

/** The node is the last call of its chain (nothing is called or read on its result). */
function endsChain(node: JsNode, ancestors: readonly JsNode[]): boolean {
  const parent = ancestors.at(-1);
  return !(
    parent &&
    (parent.type === 'MemberExpression' || parent.type === 'OptionalMemberExpression') &&
    parent.object === node
  );
}

/** The links of the chain ending at `node`, as `.name(args)` texts. */
function chainLinks(site: SiteContext, node: JsNode): Set<string> {
  const links = new Set<string>();
  for (let current: JsNode | null = node; current;) {
    const call = memberCall(current);
    if (!call) break;
    links.add(linkText(site, call.name, current));
    current = call.object;
  }
  return links;
}

function linkText(site: SiteContext, name: string, call: JsNode): string {
  return `.${name}(${(call.arguments as JsNode[]).map((a) => text(site, a)).join(', ')})`;
}

/** The `.` before a link's method name, and the indentation before it when the link starts its line. */
function linkStart(site: SiteContext, property: JsNode): { dot: number; ownLineIndent: string | null } {
  const dot = site.source.lastIndexOf('.', property.start);
  const lineStart = site.source.lastIndexOf('\n', dot - 1) + 1;
  const before = site.source.slice(lineStart, dot).replace(/\?$/, '');
  return { dot, ownLineIndent: /^\s*$/.test(before) ? before : null };
}

/** A link appended at `at`: on a line of its own when the chain's last link starts one. */
function insertion(site: SiteContext, property: JsNode, at: number, link: string): { start: number; end: number; text: string } {
  const indent = linkStart(site, property).ownLineIndent;
  return { start: at, end: at, text: indent === null ? link : `\n${indent}${link}` };
}

const LITERALS = new Set(['StringLiteral', 'NumericLiteral', 'BooleanLiteral', 'NullLiteral', 'RegExpLiteral']);

/** Names declared at the top of the module (imports, functions, classes, variables). */
function topLevelNames(program: JsNode): Set<string> {
  const names = new Set<string>(['Boolean', 'Number', 'String', 'undefined']);
  for (const statement of program.body as JsNode[]) {
    const declaration =
      statement.type === 'ExportNamedDeclaration' && isJsNode(statement.declaration) ? statement.declaration : statement;
    if (declaration.type === 'VariableDeclaration') {
      for (const d of declaration.declarations as JsNode[])
        if (isJsNode(d.id) && d.id.type === 'Identifier') names.add(d.id.name as string);
    } else if (
      (declaration.type === 'FunctionDeclaration' || declaration.type === 'ClassDeclaration') &&
      isJsNode(declaration.id)
    ) {
      names.add(declaration.id.name as string);
    } else if (declaration.type === 'ImportDeclaration') {
      for (const s of declaration.specifiers as JsNode[]) if (isJsNode(s.local)) names.add(s.local.name as string);
    }
  }
  return names;
}

/** Links of the file whose arguments mean the same anywhere in it: literals and module-level names. */
function portableLinks(site: SiteContext): Map<string, Map<string, number>> {
  const names = topLevelNames(site.program);
  const byMethod = new Map<string, Map<string, number>>();
  walkJs(
    site.program,
    (node) => {
      const call = memberCall(node);
      if (!call) return;
      const args = node.arguments as JsNode[];
      if (
        args.length === 0 ||
        !args.every((a) => LITERALS.has(a.type) || (a.type === 'Identifier' && names.has(a.name as string)))
      )
        return;
      const links = byMethod.get(call.name) ?? new Map<string, number>();
      const link = linkText(site, call.name, node);
      links.set(link, (links.get(link) ?? 0) + 1);
      byMethod.set(call.name, links);
    },
    WITH_TYPES,
  );
  return byMethod;
}

const fileLinks = new WeakMap<JsNode, Map<string, Map<string, number>>>();

/** `a.replace(X, "x").replace(Y, "y")` → `… .replace(Z, "z")`, a link the file uses elsewhere with the same method. */
export const extendChain: JsTemplate = (site) => {
  const { node, ancestors, program } = site;
  const call = memberCall(node);
  if (!call || !endsChain(node, ancestors)) return [];
  let links = fileLinks.get(program);
  if (!links) {
    links = portableLinks(site);
    fileLinks.set(program, links);
  }
  const present = chainLinks(site, node);
  const borrowed = [...(links.get(call.name) ?? new Map<string, number>())].filter(([link]) => !present.has(link));
  // The most used first; ties in the file's order (Map keeps insertion order, the sort is stable).
  borrowed.sort((a, b) => b[1] - a[1]);
  return borrowed.slice(0, MAX_BORROWED).map(([link]): Mutation => ({
    template: 'extend-chain',
    edits: [insertion(site, call.property, node.end, link)],
    description: `added \`${link.slice(0, 50)}\` to the chain`,
  }));
};

/** `parts.map(f).join("&")` → `parts.map(f).filter(Boolean).join("&")`: empty items left out of a join. */
export const filterEmpty: JsTemplate = (site) => {
  const { node } = site;
  const call = memberCall(node);
  // `path.join(a, b)` joins paths, not an array's items.
  if (!call || call.name !== 'join' || /(^|\.)(path|posix|win32)$/.test(text(site, call.object))) return [];
  if (call.object.type === 'CallExpression' && memberCall(call.object)?.name === 'filter') return [];
  const { dot, ownLineIndent } = linkStart(site, call.property);
  const edit =
    ownLineIndent === null
      ? { start: call.object.end, end: call.object.end, text: '.filter(Boolean)' }
      : { start: dot, end: dot, text: `.filter(Boolean)\n${ownLineIndent}` };
  return [{ template: 'filter-empty', edits: [edit], description: 'left empty items out of `.join(…)` with `.filter(Boolean)`' }];
};
