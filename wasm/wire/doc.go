// Package wire is aoekit's JSON codec, shared by every door (the browser module and the HTTP
// API), so that every door gives the same bytes. It decodes requests strictly (RFC 8259) into
// engine types by hand and encodes results byte for byte as encoding/json does with
// SetEscapeHTML(false), without importing encoding/json, fmt or reflect.
//
// Its code is shaped by the size of the browser module (make size): requests are read through
// field tables, small helpers are kept out of line, and numbers are read by its own exact
// readers rather than strconv's parsers.
//
// The field tables and readers of the request types and the writers of the answer types
// (codec_gen.go), and web/index.d.ts, are generated from the types of core/engine and
// core/fullattack, their json tags and doc comments: after changing those, run go generate
// ./wasm/wire (a test of internal/gen fails while a generated file is stale). The fields whose
// JSON takes more than one form are read by hand (custom.go), and so are the maps (request.go).
package wire

//go:generate go run ./internal/gen
