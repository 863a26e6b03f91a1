#!/usr/bin/env node
// The Foundry module's release: what Foundry's "Install Module" dialog installs from and updates
// from. From the module folder `make foundry` assembles (build/foundry/aoekit/), it writes
//
//   build/foundry/release/module.json   the manifest: the folder's module.json with `version`,
//                                       `manifest` (where this file will be served) and `download`
//                                       (where the zip will be served)
//   build/foundry/release/aoekit.zip    the module: every file of the folder under a top folder
//                                       aoekit/, its module.json the manifest above
//
// Usage: node web/foundry/release.mjs VERSION BASE_URL [--manifest URL] [--from DIR] [--out DIR]
//   VERSION   the release's version (1.2.3, 1.2.3-rc.1)
//   BASE_URL  where module.json and aoekit.zip will be served from: manifest is BASE_URL/module.json
//             and download BASE_URL/aoekit.zip, unless --manifest names another manifest URL (for
//             GitHub releases: BASE_URL https://github.com/OWNER/REPO/releases/download/vVERSION and
//             --manifest https://github.com/OWNER/REPO/releases/latest/download/module.json, so that
//             Foundry finds later versions)
//   --from    the module folder (default build/foundry/aoekit)
//   --out     where to write (default build/foundry/release)
//
// The zip is written here, in Node (deflate from node:zlib, CRC-32 below), not with the `zip`
// command: the same folder gives the same bytes everywhere (entries sorted, every time stamp
// 1980-01-01 00:00), and no tool needs installing. Node 18 or later.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { deflateRawSync } from "node:zlib";

const ID = "aoekit";

/** The release's module.json: the folder's, with version, manifest and download. */
export function releaseManifest(folderManifest, { version, manifest, download }) {
  const m = { ...folderManifest, version, manifest, download };
  // Keep Foundry's usual order: the URLs after the package's own links.
  const order = ["id", "title", "description", "version", "compatibility", "authors", "esmodules", "languages", "url", "manifest", "download", "bugs", "readme", "license"];
  return Object.fromEntries([...order.filter((k) => k in m).map((k) => [k, m[k]]), ...Object.entries(m).filter(([k]) => !order.includes(k))]);
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 (ISO 3309, as zip uses it). */
export function crc32(bytes) {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * A zip archive of entries [{name, data}] (names with "/", a folder's name ending in "/" and no
 * data), deflated where that is smaller, stored otherwise. No zip64: every file and the whole
 * archive under 4 GiB.
 * @param {{name: string, data?: Uint8Array}[]} entries
 * @returns {Buffer}
 */
export function zip(entries) {
  const DOS_TIME = 0; // 00:00:00
  const DOS_DATE = (0 << 9) | (1 << 5) | 1; // 1980-01-01
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const { name, data = new Uint8Array(0) } of entries) {
    const isDir = name.endsWith("/");
    const nameBytes = Buffer.from(name, "utf8");
    const crc = crc32(data);
    const deflated = isDir ? data : deflateRawSync(data, { level: 9 });
    const method = !isDir && deflated.length < data.length ? 8 : 0;
    const body = method === 8 ? deflated : data;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by: Unix, 2.0
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(DOS_TIME, 12);
    central.writeUInt16LE(DOS_DATE, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt16LE(0, 30); // extra
    central.writeUInt16LE(0, 32); // comment
    central.writeUInt16LE(0, 34); // disk
    central.writeUInt16LE(0, 36); // internal attributes
    central.writeUInt32LE((((isDir ? 0o40755 : 0o100644) << 16) | (isDir ? 0x10 : 0)) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, body);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** Every file under dir, as paths relative to it with "/", sorted. */
function files(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push(relative(dir, p).split(sep).join("/"));
    }
  };
  walk(dir);
  return out.sort();
}

/**
 * release: writes out/module.json and out/aoekit.zip for the module folder `from`.
 * @returns {{manifest: object, zip: string, files: string[]}}
 */
export function release({ version, baseUrl, manifestUrl, from, out }) {
  if (!/^\d+\.\d+\.\d+([-+][0-9A-Za-z.+-]+)?$/.test(version ?? "")) throw new Error(`release: VERSION must look like 1.2.3 (got ${JSON.stringify(version)})`);
  const base = String(baseUrl ?? "").replace(/\/+$/, "");
  for (const [what, url] of [["BASE_URL", base], ["--manifest", manifestUrl]]) {
    if (url === undefined) continue;
    let ok = false;
    try {
      ok = ["http:", "https:"].includes(new URL(url).protocol);
    } catch {}
    if (!ok) throw new Error(`release: ${what} must be an http(s) URL (got ${JSON.stringify(url)})`);
  }
  if (!statSync(join(from, "module.json"), { throwIfNoEntry: false })) throw new Error(`release: ${from} has no module.json: run make foundry first`);
  const folder = JSON.parse(readFileSync(join(from, "module.json"), "utf8"));
  if (folder.id !== ID) throw new Error(`release: ${from}/module.json is not aoekit's (id ${JSON.stringify(folder.id)})`);
  const manifest = releaseManifest(folder, { version, manifest: manifestUrl ?? `${base}/module.json`, download: `${base}/${ID}.zip` });
  const text = `${JSON.stringify(manifest, null, 2)}\n`;
  const list = files(from);
  for (const f of [...manifest.esmodules, ...(manifest.languages ?? []).map((l) => l.path)]) {
    if (!list.includes(f)) throw new Error(`release: module.json names ${f}, which ${from} lacks`);
  }
  const dirs = new Set([`${ID}/`]);
  for (const f of list) for (let i = f.indexOf("/"); i >= 0; i = f.indexOf("/", i + 1)) dirs.add(`${ID}/${f.slice(0, i + 1)}`);
  const entries = [
    ...[...dirs].sort().map((name) => ({ name })),
    ...list.map((f) => ({ name: `${ID}/${f}`, data: f === "module.json" ? Buffer.from(text) : readFileSync(join(from, f)) })),
  ];
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, "module.json"), text);
  const zipPath = join(out, `${ID}.zip`);
  writeFileSync(zipPath, zip(entries));
  return { manifest, zip: zipPath, files: list };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL("../../", import.meta.url));
  const args = process.argv.slice(2);
  const flag = (name) => {
    const i = args.indexOf(name);
    if (i < 0) return undefined;
    const [, value] = args.splice(i, 2);
    return value;
  };
  const manifestUrl = flag("--manifest");
  const from = resolve(flag("--from") ?? join(root, "build/foundry/aoekit"));
  const out = resolve(flag("--out") ?? join(root, "build/foundry/release"));
  const [version, baseUrl] = args;
  try {
    const r = release({ version, baseUrl, manifestUrl, from, out });
    console.log(`foundry release ${r.manifest.version}: ${relative(process.cwd(), out)}/module.json (manifest ${r.manifest.manifest}) and ${relative(process.cwd(), r.zip)} (download ${r.manifest.download}), ${r.files.length} files`);
  } catch (err) {
    console.error(err.message);
    console.error("usage: node web/foundry/release.mjs VERSION BASE_URL [--manifest URL] [--from DIR] [--out DIR]");
    process.exit(2);
  }
}
