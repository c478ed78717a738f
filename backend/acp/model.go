package acp

import (
	"context"
	"fmt"
	"strings"

	sdk "github.com/coder/acp-go-sdk"
)

// The model of an ACP session. An agent that offers a choice lists its
// models in session/new's answer (ACP's "models", still marked unstable)
// and takes one with session/set_model. The person picks by the model's
// id or name, or a part of it that names one model only ("haiku").

// matchModel finds want among the offered models: the id or name itself,
// in any case, or the one model whose id or name contains it.
func matchModel(offered []sdk.ModelInfo, want string) (sdk.ModelInfo, error) {
	w := strings.ToLower(strings.TrimSpace(want))
	for _, m := range offered {
		if strings.ToLower(string(m.ModelId)) == w || strings.ToLower(m.Name) == w {
			return m, nil
		}
	}
	var found []sdk.ModelInfo
	for _, m := range offered {
		if strings.Contains(strings.ToLower(string(m.ModelId)), w) || strings.Contains(strings.ToLower(m.Name), w) {
			found = append(found, m)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return sdk.ModelInfo{}, fmt.Errorf("the agent offers no model %q", want)
	default:
		return sdk.ModelInfo{}, fmt.Errorf("%q names %d of the agent's models (%s): name one of them", want, len(found), modelIDs(found))
	}
}

func modelIDs(ms []sdk.ModelInfo) string {
	ids := make([]string, len(ms))
	for i, m := range ms {
		ids[i] = string(m.ModelId)
	}
	return strings.Join(ids, ", ")
}

// setModel asks the agent for want and says in the pane what it runs on.
// A model the agent does not offer, or an agent that offers no choice,
// is said with what to do; the session goes on with the agent's own.
func (c *client) setModel(ctx context.Context, sid sdk.SessionId, want string) {
	if c.models == nil || len(c.models.AvailableModels) == 0 {
		c.printf("%s does not offer a model choice over ACP, so %q was not applied: it uses its own model (its own settings choose it).\n", c.adapter, want)
		return
	}
	m, err := matchModel(c.models.AvailableModels, want)
	if err != nil {
		c.printf("Model not changed: %v. It offers: %s. Type /model to list them, /model ID to pick one.\n", err, modelIDs(c.models.AvailableModels))
		return
	}
	if _, err := c.conn.UnstableSetSessionModel(ctx, sdk.UnstableSetSessionModelRequest{SessionId: sid, ModelId: sdk.UnstableModelId(m.ModelId)}); err != nil {
		c.printf("Model not changed: %s refused %s (%v).\n", c.adapter, m.ModelId, err)
		return
	}
	c.models.CurrentModelId = m.ModelId
	c.printf("Model: %s.\n", describeModel(m))
}

// listModels prints the offered models, the current one marked.
func (c *client) listModels() {
	if c.models == nil || len(c.models.AvailableModels) == 0 {
		c.printf("%s does not offer a model choice over ACP.\n", c.adapter)
		return
	}
	var b strings.Builder
	b.WriteString("Models this agent offers (/model ID picks one):\n")
	for _, m := range c.models.AvailableModels {
		mark := "  "
		if m.ModelId == c.models.CurrentModelId {
			mark = "* "
		}
		fmt.Fprintf(&b, "%s%s\n", mark, describeModel(m))
	}
	c.printf("%s", b.String())
}

func describeModel(m sdk.ModelInfo) string {
	s := string(m.ModelId)
	if m.Name != "" && m.Name != s {
		s += " (" + m.Name + ")"
	}
	return s
}
