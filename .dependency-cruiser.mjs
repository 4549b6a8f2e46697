// Import cycles are refused (docs/design.md §5): between files, and between src/ folders (a cycle of
// folders means a contract lives in the wrong room). `npm test` runs this through `npm run deps`.
// Which folder may import which (the flow's order) is ESLint's `no-restricted-imports` (eslint.config.js).
export default {
  forbidden: [
    {
      name: 'no-file-cycle',
      severity: 'error',
      comment: 'A module that imports itself through others: move the shared part into a module both import.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folder-cycle',
      severity: 'error',
      scope: 'folder',
      comment: 'Two src/ folders that import each other: the shared contract belongs in src/core or the lower folder.',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
