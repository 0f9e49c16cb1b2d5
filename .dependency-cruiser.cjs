// The import rules of the tree (README "Folders"), checked by `make test` (npx depcruise):
//   core/ is the leaf: it imports nothing of ours;
//   fixtures/, analysis/, figures/ and paper/ never import pipeline/;
//   paper/ reads only generated files: it imports core/ alone;
//   and no import cycle anywhere.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'core-is-a-leaf',
      comment: 'core/ is the shared leaf: it imports nothing of ours but core/',
      severity: 'error',
      from: { path: '^core/' },
      to: { path: '^(pipeline|fixtures|analysis|figures|paper|test|examples|bin)/' },
    },
    {
      name: 'nothing-downstream-imports-the-pipeline',
      comment: 'fixtures/, analysis/, figures/ and paper/ never import pipeline/ (the steps run them, not the other way)',
      severity: 'error',
      from: { path: '^(fixtures|analysis|figures|paper)/' },
      to: { path: '^pipeline/' },
    },
    {
      name: 'paper-reads-only-generated-files',
      comment: 'paper/ binds placeholders to analysis/out and figures/out: it imports core/ alone',
      severity: 'error',
      from: { path: '^paper/' },
      to: { path: '^(analysis|figures|fixtures)/' },
    },
    {
      name: 'no-cycles',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|data|manifests)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
