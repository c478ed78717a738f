package teamauth

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// RevokeDesktop signs one of person's desktops out from a page of the
// server (a lost laptop, one that should no longer take answers from the
// Needs you page): every token of that sign-in (family) stops working at
// once, on every replica. It reports false when the family is not the
// person's or was already signed out, and changes nothing then.
func (s *Service) RevokeDesktop(ctx context.Context, personID, family string) (bool, error) {
	var revoked bool
	err := s.inFamily(ctx, family, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE teamauth_desktop_tokens SET revoked = true
			WHERE family = $1 AND person_id = $2 AND NOT revoked`, family, personID)
		if err != nil {
			return fmt.Errorf("signing the desktop out: %w", err)
		}
		revoked = tag.RowsAffected() > 0
		return nil
	})
	return revoked, err
}
