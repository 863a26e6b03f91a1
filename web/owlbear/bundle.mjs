// node web/owlbear/bundle.mjs <folder>: writes <folder>/obr-sdk.js, the Owlbear Rodeo SDK
// (@owlbear-rodeo/sdk, an exact devDependency) and its four dependencies (events, immer,
// js-base64, uuid) as one ES module that a browser loads as it is. index.html's import map
// points the SDK's bare name at it ("./obr-sdk.js"), so the extension needs no CDN at run time
// and can be served from any folder of any origin, under a strict CSP too (script-src 'self').
//
// Why a bundle: the npm package is compiled TypeScript (lib/index.js) with bare, extensionless
// imports ("./api/PlayerApi") and bare dependencies, and ships no browser build, so there is no
// single ESM file to copy. The bundler is the one the repository already has, vite (rolldown),
// with the browser's export conditions (uuid's crypto.getRandomValues build) and
// process.env.NODE_ENV set to "production" (immer reads it). The licences of the five packages
// head the file. About 1 s; `make owlbear` runs it (web/foundry/foundry.mk).
//
// node web/owlbear/bundle.mjs <folder> --base https://host/some/path/: also rewrites
// <folder>/manifest.json's paths (icon, action.icon, action.popover, background_url), relative to
// the manifest, into absolute URLs under that base. The manifest's relative paths are resolved
// against its own URL by any URL resolver; this is for a host that does not (Owlbear does not
// document how it resolves them, and its SDK joins `origin + path` for the URLs it is given).
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const SDK_FILE = "obr-sdk.js";
export const SDK_PACKAGES = ["@owlbear-rodeo/sdk", "events", "immer", "js-base64", "uuid"];

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/**
 * The folder of an installed package, looked up as Node's resolver walks node_modules folders:
 * from `from` (the SDK's own folder for its dependencies, which may be nested there) upward.
 * (Not require.resolve: `events` is also the name of a Node built-in.)
 */
function packageDir(name, from = ROOT) {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dirname(dir) === dir) throw new Error(`bundle.mjs: ${name} is not installed (npm install --save-dev @owlbear-rodeo/sdk@3.1.0)`);
  }
}

/** The licence notice heading the bundle: each package's name, version, licence and text. */
function banner() {
  const sdk = packageDir(SDK_PACKAGES[0]);
  const parts = SDK_PACKAGES.map((name, i) => {
    const dir = i === 0 ? sdk : packageDir(name, sdk);
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    const file = readdirSync(dir).find((f) => /^licen[cs]e(\.(md|txt))?$/i.test(f));
    const text = file ? readFileSync(join(dir, file), "utf8").trim() : `(${pkg.license})`;
    return `${pkg.name}@${pkg.version} (${pkg.license})\n\n${text}`;
  });
  const body = parts.join("\n\n------------------------------------------------------------\n\n").replaceAll("*/", "* /");
  return `/*! ${SDK_FILE}: @owlbear-rodeo/sdk and its dependencies, bundled by aoekit's web/owlbear/bundle.mjs.\n\n${body}\n*/\n`;
}

/** bundle writes <outDir>/obr-sdk.js and returns its path. */
export async function bundle(outDir) {
  const { build } = await import("vite");
  const out = resolve(outDir);
  const tmp = join(out, `.obr-sdk-${process.pid}`);
  rmSync(tmp, { recursive: true, force: true });
  try {
    await build({
      configFile: false,
      envDir: false,
      logLevel: "warn",
      root: ROOT,
      publicDir: false,
      define: { "process.env.NODE_ENV": JSON.stringify("production") },
      build: {
        outDir: tmp,
        emptyOutDir: true,
        copyPublicDir: false,
        sourcemap: false,
        minify: true,
        reportCompressedSize: false,
        lib: { entry: join(packageDir(SDK_PACKAGES[0]), "lib/index.js"), formats: ["es"], fileName: () => SDK_FILE },
      },
    });
    const code = readFileSync(join(tmp, SDK_FILE), "utf8");
    if (/\bprocess\.env\b|\brequire\(/.test(code)) throw new Error(`bundle.mjs: ${SDK_FILE} still reads process.env or require(): it would fail in a browser`);
    mkdirSync(out, { recursive: true });
    const file = join(out, SDK_FILE);
    writeFileSync(file, banner() + code);
    return file;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The manifest fields that hold paths (Owlbear's manifest: icon, action.icon, action.popover, background_url). */
const MANIFEST_PATHS = [["icon"], ["action", "icon"], ["action", "popover"], ["background_url"]];

/** absoluteManifest rewrites <dir>/manifest.json's relative paths into absolute URLs under base; returns the manifest. */
export function absoluteManifest(dir, base) {
  const root = new URL(base.endsWith("/") ? base : `${base}/`);
  if (root.protocol !== "https:" && root.protocol !== "http:") throw new Error(`bundle.mjs: --base must be an http(s) URL, got ${base}`);
  const file = join(resolve(dir), "manifest.json");
  const manifest = JSON.parse(readFileSync(file, "utf8"));
  for (const path of MANIFEST_PATHS) {
    const parent = path.slice(0, -1).reduce((o, k) => o?.[k], manifest);
    const key = path.at(-1);
    if (typeof parent?.[key] === "string") parent[key] = new URL(parent[key], root).href;
  }
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--base");
  const base = at >= 0 ? args.splice(at, 2)[1] : undefined;
  const [dir] = args;
  if (!dir || (at >= 0 && !base)) {
    console.error("usage: node web/owlbear/bundle.mjs <folder> [--base https://host/path/]   (writes <folder>/obr-sdk.js)");
    process.exit(2);
  }
  const file = await bundle(dir);
  console.log(`owlbear: ${file} (@owlbear-rodeo/sdk, bundled)`);
  if (base) console.log(`owlbear: ${join(dir, "manifest.json")}'s paths under ${absoluteManifest(dir, base).action?.popover?.replace(/[^/]*$/, "")}`);
}
