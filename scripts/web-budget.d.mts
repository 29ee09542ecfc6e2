export interface Chunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}
export interface Figure {
  files: { file: string; gzip: number }[];
  total: number;
}
export interface Result {
  initial: Figure;
  startup: Figure;
  budgets: { initial: number; startup: number };
}
export const BUDGETS: { initial: number; startup: number };
export const HOME_CHUNKS: string[];
export function initialFiles(manifest: Record<string, Chunk>, extra?: string[]): string[];
export function measure(dist: string): Result;
export function overBudget(result: Result): ('initial' | 'startup')[];
