// The import rules of the tree (docs/architecture.md, "Folders"), checked by `make test` (npx depcruise):
//   core/ is the leaf of the harness: it imports nothing of ours but the fault proxy's package;
//   verifier/ is a package of its own: it imports nothing of ours but its own files (and of the
//   packages, playwright-core alone);
//   proxy/ is a package of its own too (@rstackbench/fault-proxy): it imports nothing of ours, and
//   of the packages only mockttp, parse5 and ajv; the harness (core/ included: the seeded draws, the
//   schema checks and the proxy's types) uses it as it would any package;
//   fixtures/, analysis/, figures/ and paper/ never import pipeline/;
//   paper/ reads only generated files: it imports core/ alone;
//   report-src/ (make report) reads only generated files too: it imports core/ and figures/ (to draw
//   the project's Vega-Lite specs), never pipeline/, analysis/ or fixtures/;
//   and no import cycle anywhere.
/** A forbidden import: from the files matching `from` to those matching `to`. */
const forbid = (name, comment, from, to) => ({ name, comment, severity: 'error', from: { path: from }, to: { path: to } });
/** A package of ours that may import, of node_modules, only the packages named (and Node's own types). */
const packagesOnly = (name, comment, from, packages) => ({
  name, comment, severity: 'error', from: { path: from },
  to: { path: '^node_modules/', pathNot: `^node_modules/(${[...packages, '@types/node'].join('|')})/` },
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    forbid('core-is-a-leaf', 'core/ is the shared leaf: it imports nothing of ours but core/',
      '^core/', '^(pipeline|fixtures|analysis|figures|paper|report-src|test|examples|bin)/'),
    forbid('verifier-is-its-own-package', 'verifier/ is a package of its own (@rstackbench/verifier): it imports nothing of ours but verifier/',
      '^verifier/', '^(core|pipeline|fixtures|analysis|figures|paper|report-src|test|examples|bin|deploy)/'),
    packagesOnly('verifier-depends-on-playwright-only', 'verifier/ depends on Playwright\'s public API alone: of the packages, only playwright-core (a peer dependency)',
      '^verifier/', ['playwright-core']),
    forbid('proxy-is-its-own-package', 'proxy/ is a package of its own (@rstackbench/fault-proxy): it imports nothing of ours but proxy/',
      '^proxy/', '^(core|pipeline|fixtures|analysis|figures|paper|report-src|test|examples|bin|deploy|verifier)/'),
    packagesOnly('proxy-depends-on-its-packages-only', 'proxy/ depends on mockttp (the proxy), parse5 (where a script goes in a document) and ajv (its schemas) alone: its package.json dependencies',
      '^proxy/', ['mockttp', 'parse5', 'ajv']),
    forbid('core-imports-no-verifier', 'core/ is the leaf: the verifier is a package the pipeline and analysis use, not core',
      '^core/', '^verifier/'),
    forbid('nothing-downstream-imports-the-pipeline', 'fixtures/, analysis/, figures/ and paper/ never import pipeline/ (the steps run them, not the other way)',
      '^(fixtures|analysis|figures|paper)/', '^pipeline/'),
    forbid('paper-reads-only-generated-files', 'paper/ binds placeholders to analysis/out and figures/out: it imports core/ alone',
      '^paper/', '^(analysis|figures|fixtures)/'),
    forbid('report-reads-only-generated-files', 'report-src/ builds report/ from data/raw and analysis/out: it imports core/ and figures/ (the Vega-Lite renderer) alone',
      '^report-src/', '^(pipeline|analysis|fixtures|paper)/'),
    forbid('nothing-imports-the-report', 'the report is the end of a flow: only its step (pipeline/steps/report.ts), the bench and the tests import report-src/',
      '^(core|fixtures|analysis|figures|paper)/', '^report-src/'),
    {
      name: 'no-cycles',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|data|manifests|verifier/dist|proxy/dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
