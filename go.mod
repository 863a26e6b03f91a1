module github.com/aoekit/aoekit

go 1.26

require (
	github.com/andybalholm/brotli v1.3.0
	github.com/syumai/workers v0.33.0
	honnef.co/go/js/dom/v2 v2.0.0-20231112215516-51f43a291193
)

tool github.com/syumai/workers/cmd/workers-assets-gen
