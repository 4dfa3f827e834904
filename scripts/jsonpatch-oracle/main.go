// The Go side of the JSON patch oracle (see run.mjs): reads one case per line
// ({"doc": text, "patch": text, "limit": n}) and writes what
// github.com/evanphx/json-patch makes of it ({"result"}, {"error"}, {"panic"}
// or {"decodeError"}), one line each.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	jsonpatch "github.com/evanphx/json-patch"
)

type input struct {
	Doc   string `json:"doc"`
	Patch string `json:"patch"`
	Limit int64  `json:"limit"`
}

func run(in input) (out map[string]string) {
	defer func() {
		if r := recover(); r != nil {
			out = map[string]string{"panic": fmt.Sprint(r)}
		}
	}()
	jsonpatch.AccumulatedCopySizeLimit = in.Limit
	p, err := jsonpatch.DecodePatch([]byte(in.Patch))
	if err != nil {
		return map[string]string{"decodeError": err.Error()}
	}
	result, err := p.Apply([]byte(in.Doc))
	if err != nil {
		return map[string]string{"error": err.Error()}
	}
	return map[string]string{"result": string(result)}
}

func main() {
	scanner := bufio.NewScanner(os.Stdin)
	scanner.Buffer(make([]byte, 1<<20), 64<<20)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for scanner.Scan() {
		var in input
		if err := json.Unmarshal(scanner.Bytes(), &in); err != nil {
			panic(err)
		}
		line, _ := json.Marshal(run(in))
		fmt.Fprintln(w, string(line))
	}
}
