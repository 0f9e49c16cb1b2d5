// The generated files the tables and figures manifests cover.
import { paths } from '../../core/paths.ts';
import { listFiles } from './files.ts';

/** analysis/out/*.json and *.csv */
export function tableFiles(dir = paths.analysisOut()): string[] {
  return listFiles(dir).filter((f) => /\.(json|csv)$/.test(f));
}

/** figures/out/*.svg and *.png */
export function figureFiles(dir = paths.figuresOut()): string[] {
  return listFiles(dir).filter((f) => /\.(svg|png)$/.test(f));
}
