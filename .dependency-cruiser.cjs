// The import rules of the tree (docs/architecture.md, "Folders"), checked by `make test` (npx depcruise):
//   core/ is the leaf: it imports nothing of ours;
//   verifier/ is a package of its own: it imports nothing of ours but its own files (and of the
//   packages, playwright-core alone);
//   fixtures/, analysis/, figures/ and paper/ never import pipeline/;
//   paper/ reads only generated files: it imports core/ alone;
//   and no import cycle anywhere.
/** A forbidden import: from the files matching `from` to those matching `to`. */
const forbid = (name, comment, from, to) => ({ name, comment, severity: 'error', from: { path: from }, to: { path: to } });

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    forbid('core-is-a-leaf', 'core/ is the shared leaf: it imports nothing of ours but core/',
      '^core/', '^(pipeline|fixtures|analysis|figures|paper|test|examples|bin)/'),
    forbid('verifier-is-its-own-package', 'verifier/ is a package of its own (@rstackbench/verifier): it imports nothing of ours but verifier/',
      '^verifier/', '^(core|pipeline|fixtures|analysis|figures|paper|test|examples|bin|deploy)/'),
    {
      name: 'verifier-depends-on-playwright-only',
      comment: 'verifier/ depends on Playwright\'s public API alone: of the packages, only playwright-core (a peer dependency)',
      severity: 'error',
      from: { path: '^verifier/' },
      to: { path: '^node_modules/', pathNot: '^node_modules/(playwright-core|@types/node)/' },
    },
    forbid('core-imports-no-verifier', 'core/ is the leaf: the verifier is a package the pipeline and analysis use, not core',
      '^core/', '^verifier/'),
    forbid('nothing-downstream-imports-the-pipeline', 'fixtures/, analysis/, figures/ and paper/ never import pipeline/ (the steps run them, not the other way)',
      '^(fixtures|analysis|figures|paper)/', '^pipeline/'),
    forbid('paper-reads-only-generated-files', 'paper/ binds placeholders to analysis/out and figures/out: it imports core/ alone',
      '^paper/', '^(analysis|figures|fixtures)/'),
    {
      name: 'no-cycles',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|data|manifests|verifier/dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
