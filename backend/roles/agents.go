package roles

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/osfoundry/desktop/backend/agentcli"
)

// Agent is one agent of the Agents screen.
type Agent struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// ModelPreference is the model the agent runs on ("" = its runtime
	// role's model).
	ModelPreference string `json:"modelPreference"`
	// RuntimeRole is the pipeline role it plays (its prompt and whether it
	// needs tools).
	RuntimeRole  string `json:"runtimeRole"`
	Instructions string `json:"instructions"`
	CreatedAt    int64  `json:"createdAt"` // epoch ms
	UpdatedAt    int64  `json:"updatedAt"`
}

// ErrNoAgent is returned for an unknown agent id.
var ErrNoAgent = errors.New("no such agent")

// Agents lists the agents by name.
func (s *Service) Agents(ctx context.Context) ([]Agent, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, name, model_preference, runtime_role, instructions, created_at, updated_at
		FROM pipeline_agents ORDER BY name COLLATE NOCASE`)
	if err != nil {
		return nil, fmt.Errorf("reading agents: %w", err)
	}
	defer rows.Close()
	out := []Agent{}
	for rows.Next() {
		a, err := scanAgent(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

type scanner interface{ Scan(dest ...any) error }

func scanAgent(r scanner) (Agent, error) {
	var a Agent
	var c, u int64
	if err := r.Scan(&a.ID, &a.Name, &a.ModelPreference, &a.RuntimeRole, &a.Instructions, &c, &u); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return a, ErrNoAgent
		}
		return a, fmt.Errorf("reading agent: %w", err)
	}
	a.CreatedAt, a.UpdatedAt = c, u
	return a, nil
}

// GetAgent returns one agent.
func (s *Service) GetAgent(ctx context.Context, id string) (Agent, error) {
	return scanAgent(s.db.QueryRowContext(ctx, `SELECT id, name, model_preference, runtime_role, instructions, created_at, updated_at
		FROM pipeline_agents WHERE id = ?`, id))
}

// SaveAgent creates (empty ID) or updates an agent. The model preference
// is checked against the runtime role now, like Pipeline Roles.
func (s *Service) SaveAgent(ctx context.Context, a Agent) (Agent, error) {
	a.Name = strings.TrimSpace(a.Name)
	if a.Name == "" {
		return a, errors.New("saving the agent: give it a name")
	}
	if a.RuntimeRole == "" {
		a.RuntimeRole = "Worker"
	}
	role, err := LookupRole(a.RuntimeRole)
	if err != nil {
		return a, err
	}
	a.RuntimeRole = role.Name
	if agentcli.IsCLIModel(a.ModelPreference) {
		m, err := agentcli.ParseModel(a.ModelPreference)
		if err != nil {
			return a, err
		}
		if err := m.CheckRole(role.Name, role.NeedsTools); err != nil {
			return a, err
		}
	}
	now := s.now().UnixMilli()
	a.UpdatedAt = now
	if a.ID == "" {
		a.ID, a.CreatedAt = "agent-"+agentcli.NewRunID(), now
		_, err = s.db.ExecContext(ctx, `INSERT INTO pipeline_agents(id, name, model_preference, runtime_role, instructions, created_at, updated_at)
			VALUES(?,?,?,?,?,?,?)`, a.ID, a.Name, a.ModelPreference, a.RuntimeRole, a.Instructions, now, now)
	} else {
		var res sql.Result
		res, err = s.db.ExecContext(ctx, `UPDATE pipeline_agents SET name=?, model_preference=?, runtime_role=?, instructions=?, updated_at=?
			WHERE id=?`, a.Name, a.ModelPreference, a.RuntimeRole, a.Instructions, now, a.ID)
		if err == nil {
			if n, _ := res.RowsAffected(); n == 0 {
				return a, ErrNoAgent
			}
		}
	}
	if err != nil {
		return a, fmt.Errorf("saving agent %s: %w", a.Name, err)
	}
	s.changed()
	return s.GetAgent(ctx, a.ID)
}

// DeleteAgent removes an agent (its past runs stay on the board).
func (s *Service) DeleteAgent(ctx context.Context, id string) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM pipeline_agents WHERE id = ?`, id); err != nil {
		return fmt.Errorf("deleting agent: %w", err)
	}
	s.changed()
	return nil
}
