package messages

import (
	"context"
	"fmt"
	"strings"
	"sync"
)

// AgentTask is one answer an agent owes a channel: the run that writes it
// reads the channel's recent posts in Task.
type AgentTask struct {
	Agent   ChannelAgent
	Channel Channel
	Task    string
}

// AgentRun is how the answer's run ended.
type AgentRun struct {
	ID    string // the run's id: the post is signed with it
	Text  string // the run's final answer
	Error string // why it failed ("" when it answered)
}

// AgentRunner runs an agent's turn through the app's run engine (and its
// one tool executor with its policy gate) and waits for its end.
type AgentRunner interface {
	RunChannelAgent(ctx context.Context, t AgentTask) (AgentRun, error)
}

// contextPosts is how many of a channel's latest posts an agent is given.
const contextPosts = 30

// Agents answers for the agents added to channels: a person's post that
// mentions @name starts that agent's run, and its answer is posted back as
// a reply signed with the run (author "bridge:<run id>", the agent's
// name). Posts by assistants never start a run, so agents cannot
// mention each other into a loop.
type Agents struct {
	s    *Store
	run  AgentRunner
	ctx  context.Context
	logf func(format string, args ...any)
	wg   sync.WaitGroup
}

// ServeAgents starts answering for the agents of s's channels until ctx
// ends; Wait waits for answers under way.
func ServeAgents(ctx context.Context, s *Store, run AgentRunner, logf func(string, ...any)) *Agents {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	a := &Agents{s: s, run: run, ctx: ctx, logf: logf}
	s.OnPost(a.posted) // for the store's lifetime, like the window's binding
	return a
}

// Wait waits for the answers under way.
func (a *Agents) Wait() { a.wg.Wait() }

func (a *Agents) posted(c Channel, m Message) {
	if m.AuthorKind != AuthorPerson || a.ctx.Err() != nil {
		return
	}
	agents, err := a.s.ChannelAgents(a.ctx, c.ID)
	if err != nil || len(agents) == 0 {
		return
	}
	for _, ag := range Mentioned(m.Text, agents) {
		a.wg.Add(1)
		go func() {
			defer a.wg.Done()
			if err := a.answer(c, m, ag); err != nil && a.ctx.Err() == nil {
				a.logf("osfoundry: @%s in #%s: %v", ag.Name, c.Name, err)
			}
		}()
	}
}

// answer runs the agent on the channel and posts what it said (or why it
// could not) as a reply to the post that mentioned it.
func (a *Agents) answer(c Channel, m Message, ag ChannelAgent) error {
	recent, err := a.s.ListMessages(a.ctx, c.ID, 0, contextPosts)
	if err != nil {
		return err
	}
	r, err := a.run.RunChannelAgent(a.ctx, AgentTask{Agent: ag, Channel: c, Task: agentTask(c, m, ag, recent)})
	if err != nil && r.ID == "" {
		return fmt.Errorf("starting the run: %w", err)
	}
	text := strings.TrimSpace(r.Text)
	if err != nil || r.Error != "" || text == "" {
		why := r.Error
		if err != nil {
			why = err.Error()
		}
		if why == "" {
			why = "the run ended without an answer"
		}
		text = "I could not answer: " + why
	}
	if n := []rune(text); len(n) > MaxTextChars {
		text = string(n[:MaxTextChars-1]) + "…"
	}
	_, _, err = a.s.PostMessage(a.ctx, Post{Channel: c.ID, AuthorKind: AuthorAssistant, Author: "bridge:" + r.ID,
		AuthorName: ag.Name, Text: text, ReplyTo: m.ID, Key: "agent:" + ag.ID + ":" + m.ID})
	if err != nil {
		return fmt.Errorf("posting the answer of run %s: %w", r.ID, err)
	}
	return nil
}

// agentTask is what the agent's run is asked: who it is, the channel's
// latest posts, and the post to answer.
func agentTask(c Channel, m Message, ag ChannelAgent, recent []Message) string {
	var b strings.Builder
	fmt.Fprintf(&b, "You are @%s in the Message channel #%s. People mention you to ask for something. "+
		"Your final answer is posted to the channel as your reply: write it for the people there, in Markdown, at most %d characters.\n\n",
		ag.Name, c.Name, MaxTextChars)
	b.WriteString("The channel's latest messages, oldest first:\n")
	for _, p := range recent {
		fmt.Fprintf(&b, "\n[%s] %s: %s\n", p.ID, p.AuthorName, p.Text)
	}
	fmt.Fprintf(&b, "\nAnswer this message from %s (%s):\n%s", m.AuthorName, m.ID, m.Text)
	return b.String()
}
