// Package wire is aoekit's JSON codec, shared by every door (the browser module and the HTTP
// API), so that every door gives the same bytes. It decodes requests strictly (RFC 8259) into
// engine types by hand and encodes results byte for byte as encoding/json does with
// SetEscapeHTML(false), without importing encoding/json, fmt or reflect.
package wire
