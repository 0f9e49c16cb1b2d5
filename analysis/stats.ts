// The statistics live in core/ because the run summaries print them too; the analysis
// re-exports them so that everything it computes is importable from analysis/.
export { wilson, mcnemarExact, median, mean } from '../core/stats.ts';
