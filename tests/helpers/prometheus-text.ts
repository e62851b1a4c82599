/**
 * A strict reader of Prometheus' text exposition format (0.0.4), for tests of /metrics:
 * prom-client writes the format but has no parser, and the npm one (parse-prometheus-text-format)
 * merges a labelled histogram's series into one and drops their counts. This one throws on
 * anything Prometheus would refuse: a sample of a family not declared by # TYPE, a bad name,
 * label or value, a series twice, a histogram whose buckets are not cumulative or whose +Inf
 * bucket is not its count.
 */
export type Sample = { name: string; labels: Record<string, string>; value: number };
export type Family = { name: string; type: string; help: string; samples: Sample[] };

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(["counter", "gauge", "histogram", "summary", "untyped"]);

/** As Prometheus reads values (Go's ParseFloat): NaN and Inf in any case (prom-client writes "Nan"). */
function parseValue(text: string, line: string): number {
  if (/^\+?inf$/i.test(text)) return Infinity;
  if (/^-inf$/i.test(text)) return -Infinity;
  if (/^nan$/i.test(text)) return NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`bad value: ${line}`);
  return Number(text);
}

/** `{a="x",b="y\"z"}` from `at` (the brace): the labels and where the text goes on. */
function parseLabels(line: string, at: number): [Record<string, string>, number] {
  const labels: Record<string, string> = {};
  let i = at + 1;
  while (line[i] !== "}") {
    const eq = line.indexOf("=", i);
    const name = line.slice(i, eq);
    if (eq < 0 || !LABEL_NAME.test(name) || line[eq + 1] !== '"') throw new Error(`bad label: ${line}`);
    if (name in labels) throw new Error(`label twice: ${line}`);
    let value = "";
    i = eq + 2;
    for (; i < line.length && line[i] !== '"'; i++) {
      if (line[i] !== "\\") {
        value += line[i];
        continue;
      }
      const escaped = line[++i];
      if (escaped === "n") value += "\n";
      else if (escaped === "\\" || escaped === '"') value += escaped;
      else throw new Error(`bad escape: ${line}`);
    }
    if (i >= line.length) throw new Error(`unterminated label value: ${line}`);
    labels[name] = value;
    i++;
    if (line[i] === ",") i++;
    else if (line[i] !== "}") throw new Error(`bad label list: ${line}`);
  }
  return [labels, i + 1];
}

function familyOf(name: string, families: Map<string, Family>): Family | undefined {
  const direct = families.get(name);
  if (direct) return direct;
  const base = name.replace(/_(bucket|sum|count)$/, "");
  const family = families.get(base);
  if (!family) return undefined;
  if (family.type === "histogram" || (family.type === "summary" && !name.endsWith("_bucket"))) return family;
  return undefined;
}

function checkHistogram(family: Family): void {
  const series = new Map<string, Sample[]>();
  for (const sample of family.samples) {
    const { le: _le, ...rest } = sample.labels;
    const key = JSON.stringify(rest);
    series.set(key, [...(series.get(key) ?? []), sample]);
  }
  for (const [key, samples] of series) {
    const buckets = samples.filter((sample) => sample.name.endsWith("_bucket"));
    const count = samples.find((sample) => sample.name.endsWith("_count"))?.value;
    let previous = 0;
    for (const bucket of buckets) {
      if (bucket.labels.le === undefined) throw new Error(`${family.name}${key}: a bucket without le`);
      if (bucket.value < previous) throw new Error(`${family.name}${key}: buckets not cumulative`);
      previous = bucket.value;
    }
    const inf = buckets.find((bucket) => bucket.labels.le === "+Inf")?.value;
    if (inf === undefined || inf !== count)
      throw new Error(`${family.name}${key}: +Inf bucket is not the count`);
  }
}

export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const seen = new Set<string>();
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const meta = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (meta) {
      const [, kind, name = "", rest = ""] = meta;
      if (!NAME.test(name)) throw new Error(`bad name: ${line}`);
      const family = families.get(name) ?? { name, type: "untyped", help: "", samples: [] };
      if (kind === "TYPE") {
        if (!TYPES.has(rest) || family.samples.length > 0) throw new Error(`bad TYPE: ${line}`);
        family.type = rest;
      } else family.help = rest;
      families.set(name, family);
      continue;
    }
    if (line.startsWith("#")) continue;
    const nameEnd = line.search(/[{ ]/);
    const name = line.slice(0, nameEnd);
    if (nameEnd < 0 || !NAME.test(name)) throw new Error(`bad sample: ${line}`);
    const [labels, after] = line[nameEnd] === "{" ? parseLabels(line, nameEnd) : [{}, nameEnd];
    const [value, timestamp, ...extra] = line.slice(after).trim().split(/\s+/);
    if (value === undefined || extra.length > 0 || (timestamp !== undefined && !/^-?\d+$/.test(timestamp)))
      throw new Error(`bad sample: ${line}`);
    const family = familyOf(name, families);
    if (!family) throw new Error(`sample of an undeclared family: ${line}`);
    const key = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
    if (seen.has(key)) throw new Error(`series twice: ${line}`);
    seen.add(key);
    family.samples.push({ name, labels, value: parseValue(value, line) });
  }
  for (const family of families.values()) if (family.type === "histogram") checkHistogram(family);
  return families;
}

/** The value of one series (`name` with exactly these labels among its own), or undefined. */
export function sampleValue(
  families: Map<string, Family>,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const family = familyOf(name, families);
  return family?.samples.find(
    (sample) =>
      sample.name === name &&
      Object.entries(labels).every(([label, value]) => sample.labels[label] === value),
  )?.value;
}
