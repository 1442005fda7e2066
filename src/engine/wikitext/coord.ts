/**
 * {{coord}} (and the templates of grammar/wikitext.json `coordinates`) → the readable degrees-minutes-seconds text the HTML front door keeps from
 * `span.geo-dms` (grammar/noise.json, `geo-dec`): "46°57′N 7°27′E". One rule for both front doors.
 * The forms are those of Module:Coordinates (enwiki): `d|N|d|E`, `d|m|N|d|m|E`,
 * `d|m|s|N|d|m|s|E`, and signed decimals `46.95|7.45`. `display=title` alone puts the coordinates
 * in the title bar, which the HTML path drops (`#coordinates`), so they are dropped here too.
 */
import type { TranscludeToken } from './syntax/types.js';
import { normalizeTemplateName } from '../grammar.js';
import { COORDINATES } from './grammar.js';
import type { CoordinateForm } from './grammar.js';

export const isCoordTemplate = (name: string): boolean => COORDINATES.has(normalizeTemplateName(name));

/** The text a coordinate template shows in running text; '' when it shows nothing there; undefined when malformed. */
export function coordText(t: TranscludeToken): string | undefined {
  const form = COORDINATES.get(normalizeTemplateName(t.name));
  if (form === undefined) return undefined;
  return form.form === 'named' ? namedCoordText(t, form) : positionalCoordText(t, form.display);
}

/**
 * dewiki {{Coordinate|NS=46/57/N|EW=7/27/E|…}}: each axis as signed decimal degrees ("46.95") or
 * degrees/minutes/seconds and hemisphere separated by slashes. `article=` without `text=` puts the
 * coordinates in the title bar only, which the HTML path drops, so nothing shows in the text.
 */
function namedCoordText(t: TranscludeToken, form: Extract<CoordinateForm, { form: 'named' }>): string | undefined {
  const param = (key: string): string => (t.getValue(key) ?? '').trim();
  if (param(form.titleOnly).length > 0 && param(form.inline).length === 0) return '';
  const ns = param(form.lat).split('/').map((p) => p.trim()).filter((p) => p.length > 0);
  const ew = param(form.lon).split('/').map((p) => p.trim()).filter((p) => p.length > 0);
  if (ns.length === 1 && ew.length === 1) return decimal(ns[0], ew[0]);
  const lat = axis(ns, /^[NS]$/i);
  // German "O" (Ost) is east.
  const lon = axis(ew.map((p) => (/^O$/i.test(p) ? 'E' : p)), /^[EW]$/i);
  if (lat === undefined || lon === undefined) return undefined;
  return `${lat} ${lon}`;
}

/** "46", "57", "N" → "46°57′N"; undefined unless 1–3 numbers and a hemisphere. */
function axis(parts: readonly string[], hemisphere: RegExp): string | undefined {
  const last = parts[parts.length - 1];
  if (last === undefined || !hemisphere.test(last)) return undefined;
  const numbers = parts.slice(0, -1);
  if (numbers.length === 0 || numbers.length > 3 || !numbers.every((p) => /^\d+(\.\d+)?$/.test(p))) return undefined;
  // Trailing zero minutes and seconds are not shown ("46/57/0/N" → 46°57′N).
  while (numbers.length > 1 && Number(numbers[numbers.length - 1]) === 0) numbers.pop();
  return `${dms(numbers)}${last.toUpperCase()}`;
}

/** {{coord}}: the forms of Module:Coordinates. */
function positionalCoordText(t: TranscludeToken, displayParam: string): string | undefined {
  const display = (t.getValue(displayParam) ?? '').toLowerCase();
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
