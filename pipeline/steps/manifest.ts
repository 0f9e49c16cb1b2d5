// make manifest: rewrite manifests/data.sha256 from what is in data/raw/ and data/excluded/.
// Runs do this themselves when they end; this is for a run that was stopped, or a file moved by hand.
import { main } from '../../core/cli.ts';
import { updateDataManifest } from '../kernel/manifest.ts';

await main({
  name: 'make manifest',
  summary: 'rewrite manifests/data.sha256 (sha256sum format) from data/raw/ and data/excluded/',
  async run() {
    const n = await updateDataManifest();
    process.stdout.write(`manifests/data.sha256: ${n} files\n`);
  },
});
