// The types of obr-sdk.js, the bundle of @owlbear-rodeo/sdk that bundle.mjs writes beside
// owlbear.mjs when the extension's folder is built: the npm package's own declarations. Only the
// type-check reads this file (tsconfig.json); the folder does not ship it.
export * from "@owlbear-rodeo/sdk";
export { default } from "@owlbear-rodeo/sdk";
