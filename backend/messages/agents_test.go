package messages

import (
	"context"
	"strings"
	"sync"
	"testing"
)

func TestMentioned(t *testing.T) {
	agents := []ChannelAgent{{ID: "a", Name: "helper"}, {ID: "b", Name: "Rev-1"}}
	for _, tc := range []struct{ name, text, want string }{
		{"plain", "@helper what is the marker?", "a"},
		{"case and punctuation", "thanks, @HELPER.", "a"},
		{"both", "@rev-1 and @helper", "a,b"},
		{"longer name", "@helpers look", ""},
		{"an e-mail address", "mail bob@helper.com", ""},
		{"no mention", "helper, look", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, a := range Mentioned(tc.text, agents) {
				got = append(got, a.ID)
			}
			if strings.Join(got, ",") != tc.want {
				t.Fatalf("Mentioned(%q) = %v, want %q", tc.text, got, tc.want)
			}
		})
	}
}

func TestAddAgentChecksItsName(t *testing.T) {
	s := open(t)
	c, err := s.CreateChannel(bg, NewChannel{Workspace: "ws", Name: "general"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		a    ChannelAgent
		ok   bool
	}{
		{"Claude Code", ChannelAgent{Name: "@helper", CLI: AgentClaude, Role: "Worker"}, true},
		{"the same name again", ChannelAgent{Name: "Helper", CLI: AgentCodex, Role: "Worker"}, false},
		{"Codex", ChannelAgent{Name: "coder", CLI: AgentCodex, Role: "Reviewer"}, true},
		{"a space", ChannelAgent{Name: "my helper", CLI: AgentClaude, Role: "Worker"}, false},
		{"another CLI", ChannelAgent{Name: "gem", CLI: "gemini", Role: "Worker"}, false},
		{"no role", ChannelAgent{Name: "idle", CLI: AgentClaude}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.a.Channel = c.ID
			_, err := s.AddAgent(bg, tc.a)
			if (err == nil) != tc.ok {
				t.Fatalf("AddAgent: %v, want ok=%v", err, tc.ok)
			}
		})
	}
	as, err := s.ChannelAgents(bg, c.ID)
	if err != nil || len(as) != 2 || as[0].Name != "helper" || as[1].Name != "coder" {
		t.Fatalf("agents %+v, %v", as, err)
	}
}

type fakeRunner struct {
	mu    sync.Mutex
	tasks []AgentTask
	ids   int
}

func (f *fakeRunner) RunChannelAgent(_ context.Context, t AgentTask) (AgentRun, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.tasks = append(f.tasks, t)
	f.ids++
	return AgentRun{ID: "run" + string(rune('0'+f.ids)), Text: "The marker is e2e-42."}, nil
}

// A person's post mentioning @helper starts one run that is given the
// channel; its answer is a reply signed with the run under the agent's
// name. The agent's own post and a post without a mention start nothing.
func TestAgentAnswersItsMention(t *testing.T) {
	s := open(t)
	c, _ := s.CreateChannel(bg, NewChannel{Workspace: "ws", Name: "general"})
	if _, err := s.AddAgent(bg, ChannelAgent{Channel: c.ID, Name: "helper", CLI: AgentClaude, Role: "Worker"}); err != nil {
		t.Fatal(err)
	}
	run := &fakeRunner{}
	a := ServeAgents(bg, s, run, t.Logf)
	person := func(text string) Message {
		m, _, err := s.PostMessage(bg, Post{Channel: c.ID, AuthorKind: AuthorPerson, Author: OwnerID, AuthorName: OwnerName, Text: text})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	person("the launch checklist is in the notes")
	asked := person("@helper what is the marker?")
	a.Wait()
	person("nobody is mentioned here")
	a.Wait()
	if len(run.tasks) != 1 {
		t.Fatalf("%d runs, want 1", len(run.tasks))
	}
	task := run.tasks[0].Task
	if !strings.Contains(task, "the launch checklist is in the notes") || !strings.Contains(task, "@helper what is the marker?") || run.tasks[0].Agent.Role != "Worker" {
		t.Fatalf("the run was not given the channel: %q", task)
	}
	ms, err := s.ListMessages(bg, c.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var answer *Message
	for i := range ms {
		if ms[i].AuthorKind == AuthorAssistant {
			answer = &ms[i]
		}
	}
	if answer == nil || answer.Author != "bridge:run1" || answer.AuthorName != "helper" || answer.ReplyTo != asked.ID || answer.Text != "The marker is e2e-42." {
		t.Fatalf("the answer: %+v", answer)
	}
}
