/** The confidence of a table as a badge: the number always shown, the colour only a second cue. */
import { esc } from '../html.js';

export type ConfidenceLevel = 'high' | 'medium' | 'low';

/** Bands of docs/tables.md's score: below 0.5 the grid is more likely layout than data. */
export function confidenceLevel(score: number): ConfidenceLevel {
  if (score >= 0.8) return 'high';
  if (score >= 0.5) return 'medium';
  return 'low';
}

export function confidenceBadge(score: number): string {
  const level = confidenceLevel(score);
  const shown = score.toFixed(2);
  return `<span class="badge conf-${level}" title="confidence_score ${esc(String(score))} (${level})">confidence ${shown}</span>`;
}
