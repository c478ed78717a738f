package tools

import (
	"fmt"
	"net/http"
)

// Deps are the services behind the app's tools. A nil service means its
// tool is not registered at all: a model is never offered a tool that can
// only fail (web_search without a search key, transcribe without a
// speech service, the live-screen tools without a terminal).
type Deps struct {
	Memory      MemorySearcher // memory_search
	Todos       *Todos         // todo_list
	Panes       Panes          // runtime_list / _read / _send / _answer
	Blocked     BlockedFunc    // required with Panes
	Web         *http.Client   // extract_content may fetch URLs (NewWebClient()); nil = offline
	WebSearch   WebSearcher    // web_search
	Transcriber Transcriber    // transcribe
}

// RegisterBuiltins registers the app's tools that deps can back.
// code_search and extract_content need only the run's folder and are
// always registered.
func RegisterBuiltins(e *Executor, d Deps) error {
	ts := []Tool{CodeSearchTool(), ExtractContentTool(d.Web)}
	if d.Memory != nil {
		ts = append(ts, MemorySearchTool(d.Memory))
	}
	if d.Todos != nil {
		ts = append(ts, TodoListTool(d.Todos))
	}
	if d.WebSearch != nil {
		ts = append(ts, WebSearchTool(d.WebSearch))
	}
	if d.Transcriber != nil {
		ts = append(ts, TranscribeTool(d.Transcriber))
	}
	if d.Panes != nil {
		rt, err := RuntimeTools(d.Panes, d.Blocked)
		if err != nil {
			return err
		}
		ts = append(ts, rt...)
	}
	for _, t := range ts {
		if err := e.Register(t); err != nil {
			return fmt.Errorf("registering the app's tools: %w", err)
		}
	}
	return nil
}
