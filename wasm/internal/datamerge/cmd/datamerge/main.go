// Command datamerge merges a linked WebAssembly module's active data segments (issue 30; see
// package wasm/internal/datamerge):
//
//	go run ./wasm/internal/datamerge/cmd/datamerge [-gap N] [-nolines] [-o out.wasm] in.wasm
//
// -nolines then blanks the module's file and line tables (package wasm/internal/nolines: a
// traceback names its functions but gives no file or line; -66 KB brotli on aoekit.wasm).
//
// Without -o it rewrites in.wasm in place (through a temporary file in its directory, renamed
// over it, so that a failed run leaves it as it was). It prints the data segments' count and
// bytes and the module's size before and after. -gap N splits the output where a zero gap is
// longer than N bytes (-1: never); by default datamerge.DefaultMaxGap. On a module it refuses
// (not what Go emits), it prints why, exits 1 and writes nothing.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/aoekit/aoekit/wasm/internal/datamerge"
	"github.com/aoekit/aoekit/wasm/internal/nolines"
)

func main() {
	out := flag.String("o", "", "write the merged module to this file (default: rewrite the input in place)")
	gap := flag.Int("gap", datamerge.DefaultMaxGap, "split where a zero gap is longer than this many bytes (-1: never)")
	quiet := flag.Bool("q", false, "print nothing when it succeeds")
	lines := flag.Bool("nolines", false, "blank the file and line tables too (wasm/internal/nolines)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: datamerge [-gap N] [-nolines] [-q] [-o out.wasm] in.wasm")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	in := flag.Arg(0)
	if err := run(in, *out, *gap, *lines, *quiet); err != nil {
		fmt.Fprintln(os.Stderr, "datamerge:", in+":", err)
		os.Exit(1)
	}
}

func run(in, out string, gap int, lines, quiet bool) error {
	module, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	merged, st, err := datamerge.Merge(module, gap)
	if err != nil {
		return err
	}
	var ls nolines.Stats
	if lines {
		if merged, ls, err = nolines.Strip(merged); err != nil {
			return err
		}
	}
	if out == "" {
		out = in
	}
	if err := writeFile(out, merged); err != nil {
		return err
	}
	if !quiet {
		fmt.Printf("%s: %d data segments (%d B) -> %d (%d B); module %d -> %d B\n",
			out, st.Segments, st.DataBytes, st.MergedSegments, st.MergedBytes, st.Size, st.MergedSize)
		if lines {
			fmt.Printf("%s: %d functions: %d file and line tables blanked, %d B of %d B of pc tables zeroed\n",
				out, ls.Funcs, ls.Tables, ls.ZeroedBytes, ls.PCTableBytes)
		}
	}
	return nil
}

// writeFile writes b to name through a temporary file renamed over it, with name's mode if it
// exists (0644 otherwise).
func writeFile(name string, b []byte) error {
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(name); err == nil {
		mode = fi.Mode().Perm()
	}
	f, err := os.CreateTemp(filepath.Dir(name), ".datamerge-*.wasm")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, mode)
	}
	if err == nil {
		err = os.Rename(tmp, name)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}
