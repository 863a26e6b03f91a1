// Formatting for bench.mjs: times, rates and the aligned text table.

/** us formats a time given in µs: ns under 1 µs, µs under 1 ms, ms above. */
export function us(v) {
  if (v === undefined || v === null || !Number.isFinite(v)) return "—";
  if (v < 0) return `-${us(-v)}`;
  if (v < 1) return `${sig(v * 1000)} ns`;
  if (v < 1000) return `${sig(v)} µs`;
  return `${sig(v / 1000)} ms`;
}

/** sig is v with 3 significant digits (no exponent). */
export function sig(v) {
  if (v === 0) return "0";
  if (Math.abs(v) < 0.01) return v.toPrecision(2);
  const digits = Math.max(0, 2 - Math.floor(Math.log10(Math.abs(v))));
  return v.toFixed(Math.min(digits, 3));
}

/** bytes formats n with thousands separators. */
export function bytes(n) {
  return n === undefined || n === null ? "—" : `${n.toLocaleString("en-US")} B`;
}

/** ratio formats a ratio a/b as "×0.123". */
export function ratio(v) {
  return Number.isFinite(v) ? `×${sig(v)}` : "—";
}

const COLUMNS = [
  ["group", "group"],
  ["case", "case"],
  ["median", "median"],
  ["p95", "p95"],
  ["cpu", "cpu"],
  ["rate", "rate"],
  ["vs", "vs"],
  ["note", "note"],
];

/** render lays the rows out as aligned text (the note column is left unpadded). */
export function render(rows) {
  const cells = rows.map((r) => COLUMNS.map(([key]) => String(r.text?.[key] ?? "")));
  const head = COLUMNS.map(([, title]) => title);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const right = new Set([2, 3, 4, 5, 6]);
  const line = (c) =>
    c
      .map((v, i) => (i === c.length - 1 ? v : right.has(i) ? v.padStart(widths[i]) : v.padEnd(widths[i])))
      .join("  ")
      .trimEnd();
  const out = [line(head), line(widths.map((w) => "-".repeat(w)))];
  let group = null;
  for (let i = 0; i < rows.length; i++) {
    if (group !== null && rows[i].group !== group) out.push("");
    group = rows[i].group;
    out.push(line(cells[i]));
  }
  return out.join("\n");
}
