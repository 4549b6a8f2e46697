// The main guard of a JavaScript file: under it, ending the process or setting its exit status is
// the program's own business (a command line tool's exit), never the harness's, since no test that
// imports the file runs it. harness-tampering-js.ts asks here before it reports an exit.
import { isJsNode, type JsNode } from '../core/js-tree.ts';

/**
 * Code that runs only when the file is the program itself, never when a test imports it:
 * exactly `if (require.main === module)` or `if (import.meta.main)`.
 */
export function underMainGuard(ancestors: readonly JsNode[]): boolean {
  return ancestors.some(
    (node, i) => node.type === 'IfStatement' && ancestors[i + 1] === node['consequent'] && isMainTest(node['test']),
  );
}

function isMainTest(test: unknown): boolean {
  if (!isJsNode(test)) return false;
  if (
    test.type === 'MemberExpression' &&
    isJsNode(test['object']) &&
    test['object'].type === 'MetaProperty' &&
    (test['property'] as JsNode | undefined)?.['name'] === 'main'
  )
    return true;
  if (test.type !== 'BinaryExpression' || (test['operator'] !== '===' && test['operator'] !== '==')) return false;
  const sides = [test['left'], test['right']].filter(isJsNode);
  const isRequireMain = (n: JsNode) =>
    n.type === 'MemberExpression' &&
    (n['object'] as JsNode)['name'] === 'require' &&
    (n['property'] as JsNode)['name'] === 'main';
  return sides.some(isRequireMain) && sides.some((n) => n.type === 'Identifier' && n['name'] === 'module');
}
