/**
 * What grew between two V8 heap snapshots (`.heapsnapshot` files, as the inspector writes them),
 * by constructor: objects and bytes of each, and for the classes that grew most, which classes
 * hold them (their retainers, by constructor). Enough to tell a leak (a Map keyed by device that
 * only gains entries, listeners piling up on one emitter) from a heap that only moved.
 *
 * The files are read as bytes and their number arrays scanned without JSON.parse: a snapshot of a
 * few hundred megabytes exceeds what one JavaScript string may hold.
 */
import { readFile } from 'node:fs/promises';

interface Meta {
  node_fields: string[];
  node_types: [string[], ...unknown[]];
  edge_fields: string[];
  edge_types: [string[], ...unknown[]];
}

export interface ClassFigures {
  count: number;
  bytes: number;
}

export interface HeapSummary {
  classes: Map<string, ClassFigures>;
  /** For each class, the classes of the objects that reference its objects, by count. */
  retainers: Map<string, Map<string, number>>;
  totalBytes: number;
}

/** The numbers of the JSON array that starts after `key` (e.g. `"nodes":[`). */
function numbersAfter(bytes: Buffer, key: string, from: number): { values: Float64Array; end: number } {
  const start = bytes.indexOf(key, from, 'latin1');
  if (start < 0) throw new Error(`heap snapshot: no ${key}`);
  let at = start + key.length;
  const end = bytes.indexOf(']', at, 'latin1');
  let values = new Float64Array(1 << 20);
  let length = 0;
  let current = 0;
  let inNumber = false;
  for (; at < end; at++) {
    const byte = bytes[at]!;
    if (byte >= 48 && byte <= 57) {
      current = current * 10 + (byte - 48);
      inNumber = true;
    } else if (inNumber) {
      if (length === values.length) {
        const grown = new Float64Array(values.length * 2);
        grown.set(values);
        values = grown;
      }
      values[length++] = current;
      current = 0;
      inNumber = false;
    }
  }
  if (inNumber) values[length++] = current;
  return { values: values.subarray(0, length), end };
}

/** Class name of a node: the constructor of an object, or the node's kind in parentheses. */
function className(type: string, name: string): string {
  if (type === 'object' || type === 'native') return name === '' ? `(${type})` : name;
  if (type === 'closure') return '(closure)';
  if (type === 'string' || type === 'concatenated string' || type === 'sliced string') return '(string)';
  return `(${type})`;
}

export async function summarizeHeapSnapshot(path: string): Promise<HeapSummary> {
  const bytes = await readFile(path);
  const metaStart = bytes.indexOf('"meta":', 0, 'latin1');
  const metaEnd = bytes.indexOf('"node_count"', metaStart, 'latin1');
  // The meta object ends with `},` before node_count.
  const metaText = bytes.subarray(metaStart + 7, bytes.lastIndexOf('}', metaEnd)).toString('utf8') + '}';
  const meta = JSON.parse(metaText) as Meta;
  const nodes = numbersAfter(bytes, '"nodes":[', metaEnd);
  const edges = numbersAfter(bytes, '"edges":[', nodes.end);
  const stringsStart = bytes.indexOf('"strings":[', edges.end, 'latin1') + '"strings":'.length;
  const stringsEnd = bytes.lastIndexOf(']');
  const strings = JSON.parse(bytes.subarray(stringsStart, stringsEnd + 1).toString('utf8')) as string[];

  const nodeFields = meta.node_fields.length;
  const typeAt = meta.node_fields.indexOf('type');
  const nameAt = meta.node_fields.indexOf('name');
  const sizeAt = meta.node_fields.indexOf('self_size');
  const edgeCountAt = meta.node_fields.indexOf('edge_count');
  const edgeFields = meta.edge_fields.length;
  const edgeTypeAt = meta.edge_fields.indexOf('type');
  const toNodeAt = meta.edge_fields.indexOf('to_node');
  const nodeTypes = meta.node_types[0];
  const edgeTypes = meta.edge_types[0];
  const weak = edgeTypes.indexOf('weak');

  const nodeCount = nodes.values.length / nodeFields;
  const classOfNode: string[] = new Array<string>(nodeCount);
  const classes = new Map<string, ClassFigures>();
  let totalBytes = 0;
  for (let node = 0; node < nodeCount; node++) {
    const base = node * nodeFields;
    const name = className(nodeTypes[nodes.values[base + typeAt]!] ?? '?', strings[nodes.values[base + nameAt]!] ?? '');
    classOfNode[node] = name;
    const size = nodes.values[base + sizeAt]!;
    totalBytes += size;
    const figures = classes.get(name);
    if (figures === undefined) classes.set(name, { count: 1, bytes: size });
    else {
      figures.count++;
      figures.bytes += size;
    }
  }
  const retainers = new Map<string, Map<string, number>>();
  let edge = 0;
  for (let node = 0; node < nodeCount; node++) {
    const from = classOfNode[node]!;
    const count = nodes.values[node * nodeFields + edgeCountAt]!;
    for (let i = 0; i < count; i++, edge += edgeFields) {
      if (edges.values[edge + edgeTypeAt] === weak) continue;
      const to = classOfNode[edges.values[edge + toNodeAt]! / nodeFields]!;
      let held = retainers.get(to);
      if (held === undefined) retainers.set(to, (held = new Map()));
      held.set(from, (held.get(from) ?? 0) + 1);
    }
  }
  return { classes, retainers, totalBytes };
}

/** Lines saying which classes grew most from `before` to `after`, with their retainers' growth. */
export function describeHeapGrowth(before: HeapSummary, after: HeapSummary, top = 15): string[] {
  const grown = [...after.classes].map(([name, figures]) => {
    const was = before.classes.get(name) ?? { count: 0, bytes: 0 };
    return { name, count: figures.count - was.count, bytes: figures.bytes - was.bytes, now: figures };
  });
  grown.sort((a, b) => b.bytes - a.bytes);
  const mbText = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
  const lines = [`heap snapshots: ${mbText(before.totalBytes)} → ${mbText(after.totalBytes)} (${mbText(after.totalBytes - before.totalBytes)})`];
  for (const entry of grown.slice(0, top)) {
    if (entry.bytes <= 0 && entry.count <= 0) break;
    const beforeHeld = before.retainers.get(entry.name) ?? new Map<string, number>();
    const heldGrowth = [...(after.retainers.get(entry.name) ?? new Map<string, number>())]
      .map(([holder, count]) => [holder, count - (beforeHeld.get(holder) ?? 0)] as const)
      .filter(([, count]) => count > 0)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([holder, count]) => `${holder} +${count}`);
    lines.push(
      `  ${entry.name.slice(0, 60).padEnd(60)} ${mbText(entry.bytes).padStart(10)} ${`${entry.count >= 0 ? '+' : ''}${entry.count}`.padStart(9)} objects (now ${entry.now.count})${heldGrowth.length > 0 ? `; held by ${heldGrowth.join(', ')}` : ''}`,
    );
  }
  return lines;
}
