// make figures: every figures/*.vl.json rendered from analysis/out to figures/out as SVG and PNG
// (figures/render.ts), then manifests/figures.sha256 over what was rendered.
import { main } from '../../core/cli.ts';
import { paths, rel } from '../../core/paths.ts';
import { log } from '../../core/log.ts';
import { messages } from '../../core/messages.ts';
import { renderFigures } from '../../figures/render.ts';
import { figureFiles } from '../kernel/analysis-files.ts';
import { writeManifest } from '../kernel/manifest.ts';

await main({
  name: 'figures',
  summary: 'render every figures/*.vl.json from analysis/out to figures/out (SVG and PNG, byte-identical on a rerun)',
  async run() {
    const written = await renderFigures();
    await writeManifest(paths.figuresManifest(), figureFiles());
    log({ kind: 'info', message: messages.figuresWrote(written.length / 2, rel(paths.figuresOut())) + `; hashes in ${rel(paths.figuresManifest())}` });
  },
});
