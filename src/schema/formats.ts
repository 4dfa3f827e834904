// String formats the validator checks (the apiextensions subset of
// go-openapi/strfmt). Formats not listed here are accepted unchecked, as in
// Kubernetes; int-or-string and quantity are not string formats.
import { isIP, isIPv4, isIPv6 } from 'node:net';

const RE = {
  dateTime: /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
  uuid: /^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$/,
  base64: /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/,
  hostname: /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/,
  email: /^[^\s@]+@[^\s@]+$/,
  mac: /^(?:[0-9A-Fa-f]{2}([:-]))(?:[0-9A-Fa-f]{2}\1){4}[0-9A-Fa-f]{2}$/,
  duration: /^(?:[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|ms|s|m|h|d|w))+$/,
};

function dateOk(s: string): boolean {
  const [y, m, d] = s.slice(0, 10).split('-').map(Number) as [number, number, number];
  if (m < 1 || m > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

function cidr(s: string): boolean {
  const slash = s.indexOf('/');
  if (slash < 0) return false;
  const ip = s.slice(0, slash);
  const bits = s.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bits)) return false;
  const v = isIP(ip);
  return v !== 0 && Number(bits) <= (v === 4 ? 32 : 128);
}

const CHECKS: { [format: string]: (s: string) => boolean } = {
  'date-time': (s) => RE.dateTime.test(s) && dateOk(s) && Number(s.slice(11, 13)) < 24 && Number(s.slice(14, 16)) < 60 && Number(s.slice(17, 19)) < 61,
  datetime: (s) => CHECKS['date-time']!(s),
  date: (s) => RE.date.test(s) && dateOk(s),
  uuid: (s) => RE.uuid.test(s),
  byte: (s) => RE.base64.test(s),
  ipv4: (s) => isIPv4(s),
  ipv6: (s) => isIPv6(s),
  cidr,
  hostname: (s) => RE.hostname.test(s),
  email: (s) => RE.email.test(s),
  mac: (s) => RE.mac.test(s),
  duration: (s) => RE.duration.test(s),
};

/** Whether `s` is valid for `format`; unknown formats are always valid. */
export function formatOk(format: string, s: string): boolean {
  const check = CHECKS[format];
  return check === undefined || check(s);
}
