// Which token the action worked with, said where it matters: pushes made with the workflow's
// GITHUB_TOKEN start no workflows (GitHub's rule against recursive runs), so the repository's CI has
// not run on fixloop's branch; a GitHub App's or a person's token does start them.
import type { TokenKind } from './action-env.ts';

export function tokenNote(kind: TokenKind): string {
  return kind === 'workflow'
    ? "<sub>Pushed by the fixloop GitHub Action with the workflow's `GITHUB_TOKEN`: GitHub starts no workflows for such pushes, so this repository's CI has not run on this branch (fixloop's own verification above has). To have CI run, give the action a GitHub App token (docs/github-action.md).</sub>"
    : "<sub>Pushed by the fixloop GitHub Action with the token given as its `github-token` input (not the workflow's `GITHUB_TOKEN`): this repository's workflows run on this branch as on any push.</sub>";
}
