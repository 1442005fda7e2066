/**
 * {{coord}} → the readable degrees-minutes-seconds text the HTML front door keeps from
 * `span.geo-dms` (grammar/noise.json, `geo-dec`): "46°57′N 7°27′E". One rule for both front doors.
 * The forms are those of Module:Coordinates (enwiki): `d|N|d|E`, `d|m|N|d|m|E`,
 * `d|m|s|N|d|m|s|E`, and signed decimals `46.95|7.45`. `display=title` alone puts the coordinates
 * in the title bar, which the HTML path drops (`#coordinates`), so they are dropped here too.
 */
import type { TranscludeToken } from 'wikiparser-node/dist/internal.js';
import { normalizeTemplateName } from '../grammar.js';

/** The coordinate templates whose parameters follow Module:Coordinates. */
const COORD_TEMPLATES = new Set(['coord']);

export const isCoordTemplate = (name: string): boolean => COORD_TEMPLATES.has(normalizeTemplateName(name));

/** The text {{coord}} shows in running text; '' when it shows nothing there; undefined when malformed. */
export function coordText(t: TranscludeToken): string | undefined {
  const display = (t.getValue('display') ?? '').toLowerCase();
  if (display.length > 0 && !display.includes('inline') && !/(^|,)\s*i\s*(,|$)/.test(display)) return '';
  const args = t.getAnonArgs().map((a) => a.getValue().trim());
  const hemisphere = args.findIndex((a) => /^[NS]$/i.test(a));
  if (hemisphere < 0) return decimal(args[0], args[1]);
  const lat = args.slice(0, hemisphere);
  const rest = args.slice(hemisphere + 1);
  const eastWest = rest.findIndex((a) => /^[EW]$/i.test(a));
  if (eastWest < 0 || lat.length === 0 || lat.length > 3 || eastWest !== lat.length) return undefined;
  const lon = rest.slice(0, eastWest);
  if (![...lat, ...lon].every((p) => /^\d+(\.\d+)?$/.test(p))) return undefined;
  return `${dms(lat)}${args[hemisphere]!.toUpperCase()} ${dms(lon)}${rest[eastWest]!.toUpperCase()}`;
}

const UNITS = ['°', '′', '″'];

function dms(parts: readonly string[]): string {
  return parts.map((p, i) => `${p}${UNITS[i]}`).join('');
}

/**
 * Signed decimals, shown in degrees-minutes-seconds at the precision they were written with, as
 * the module does: whole degrees, minutes for one or two decimals, seconds beyond.
 */
function decimal(latText: string | undefined, lonText: string | undefined): string | undefined {
  if (latText === undefined || lonText === undefined) return undefined;
  if (!/^[+-]?\d+(\.\d+)?$/.test(latText) || !/^[+-]?\d+(\.\d+)?$/.test(lonText)) return undefined;
  const digits = Math.max(decimals(latText), decimals(lonText));
  const precision = digits === 0 ? 0 : digits <= 2 ? 1 : 2;
  const lat = Number(latText);
  const lon = Number(lonText);
  if (Math.abs(lat) > 90 || Math.abs(lon) > 180) return undefined;
  return `${toDms(Math.abs(lat), precision)}${lat < 0 ? 'S' : 'N'} ${toDms(Math.abs(lon), precision)}${lon < 0 ? 'W' : 'E'}`;
}

const decimals = (s: string): number => (s.includes('.') ? s.length - s.indexOf('.') - 1 : 0);

function toDms(value: number, precision: number): string {
  const steps = precision === 0 ? 1 : precision === 1 ? 60 : 3600;
  const total = Math.round(value * steps);
  const d = Math.floor(total / steps);
  if (precision === 0) return `${d}°`;
  const m = Math.floor((total % steps) / (steps / 60));
  if (precision === 1) return `${d}°${m}′`;
  return `${d}°${m}′${total % 60}″`;
}
