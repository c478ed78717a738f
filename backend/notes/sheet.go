package notes

import (
	"encoding/json"
	"fmt"
)

// newSheetData is an empty Sheet tab with one grid.
func newSheetData() *SheetData {
	return &SheetData{Sheets: []Sheet{{ID: "sheet-1", Name: "Sheet1", Cells: [][]any{}}}}
}

type sheetSize struct {
	ID   string `json:"sheet_id"`
	Name string `json:"name"`
	Rows int    `json:"rows"`
	Cols int    `json:"cols"`
}

func sheetSizes(d *SheetData) []sheetSize {
	out := make([]sheetSize, len(d.Sheets))
	for i := range d.Sheets {
		sh := &d.Sheets[i]
		out[i] = sheetSize{ID: sh.ID, Name: sh.Name, Rows: sh.rows(), Cols: sh.cols()}
	}
	return out
}

// find returns the sheet with id, or the first one when id is "".
func (d *SheetData) find(id string) (*Sheet, error) {
	if len(d.Sheets) == 0 {
		return nil, fmt.Errorf("this Sheet tab has no sheets")
	}
	if id == "" {
		return &d.Sheets[0], nil
	}
	for i := range d.Sheets {
		if d.Sheets[i].ID == id {
			return &d.Sheets[i], nil
		}
	}
	return nil, fmt.Errorf("sheet_id %q is not in this tab; read_note_tab lists its sheets", id)
}

func (sh *Sheet) rows() int { return len(sh.Cells) }

func (sh *Sheet) cols() int {
	n := 0
	for _, r := range sh.Cells {
		n = max(n, len(r))
	}
	return n
}

// read returns rows×cols cells from (r0, c0); cells past the data are nil.
func (sh *Sheet) read(r0, c0, rows, cols int) [][]any {
	out := make([][]any, rows)
	for i := range out {
		out[i] = make([]any, cols)
		r := r0 + i
		if r >= len(sh.Cells) {
			continue
		}
		for j := range out[i] {
			if c := c0 + j; c < len(sh.Cells[r]) {
				out[i][j] = sh.Cells[r][c]
			}
		}
	}
	return out
}

// checkCells validates a block of cell values: at most maxR×maxC, each a
// JSON scalar of bounded size.
func checkCells(values [][]any, maxR, maxC int) error {
	if len(values) > maxR {
		return argErr("values has %d rows; at most %d per call", len(values), maxR)
	}
	for i, row := range values {
		if len(row) > maxC {
			return argErr("values row %d has %d columns; at most %d per call", i, len(row), maxC)
		}
		for j, v := range row {
			switch x := v.(type) {
			case nil, bool, float64, json.Number:
			case string:
				if len(x) > MaxCellBytes {
					return argErr("values[%d][%d] is larger than %d bytes", i, j, MaxCellBytes)
				}
			default:
				return argErr("values[%d][%d] must be a string, number, boolean or null", i, j)
			}
		}
	}
	return nil
}

// set writes values at (r0, c0), growing the grid as needed.
func (sh *Sheet) set(r0, c0 int, values [][]any) error {
	if err := checkCells(values, MaxRangeRows, MaxRangeCols); err != nil {
		return err
	}
	if r0+len(values) > MaxSheetRows {
		return argErr("start_row %d + %d rows passes the sheet limit of %d rows", r0, len(values), MaxSheetRows)
	}
	for i, row := range values {
		r := r0 + i
		if c0+len(row) > MaxSheetCols {
			return argErr("start_col %d + %d columns passes the sheet limit of %d columns", c0, len(row), MaxSheetCols)
		}
		for len(sh.Cells) <= r {
			sh.Cells = append(sh.Cells, []any{})
		}
		for len(sh.Cells[r]) < c0+len(row) {
			sh.Cells[r] = append(sh.Cells[r], nil)
		}
		copy(sh.Cells[r][c0:], row)
	}
	return nil
}

// validate checks a whole Sheet tab (replace_tab_data) and fills missing ids.
func (d *SheetData) validate() error {
	if len(d.Sheets) == 0 {
		return argErr(`data.sheets must hold at least one sheet: {"sheets": [{"name": "Sheet1", "cells": [[...]]}]}`)
	}
	seen := map[string]bool{}
	for i := range d.Sheets {
		sh := &d.Sheets[i]
		if sh.ID == "" {
			sh.ID = fmt.Sprintf("sheet-%d", i+1)
		}
		if seen[sh.ID] {
			return argErr("data.sheets has two sheets with id %q", sh.ID)
		}
		seen[sh.ID] = true
		if sh.Name == "" {
			sh.Name = fmt.Sprintf("Sheet%d", i+1)
		}
		if sh.Cells == nil {
			sh.Cells = [][]any{}
		}
		if err := checkCells(sh.Cells, MaxSheetRows, MaxSheetCols); err != nil {
			return argErr("sheet %q: %v", sh.ID, err)
		}
	}
	return nil
}

// validate checks a whole Slides tab and fills missing ids.
func (d *SlidesData) validate() error {
	if d.Slides == nil {
		d.Slides = []Slide{}
	}
	if len(d.Slides) > MaxSlides {
		return argErr("%d slides; a Slides tab holds at most %d", len(d.Slides), MaxSlides)
	}
	for i := range d.Slides {
		sl := &d.Slides[i]
		if sl.ID == "" {
			sl.ID = newID("slide")
		}
		if len(sl.Title)+len(sl.Body) > MaxSlideBytes {
			return argErr("slide %d is larger than %d bytes", i, MaxSlideBytes)
		}
	}
	return nil
}

// insert adds slides at position (-1 or past the end appends).
func (d *SlidesData) insert(pos int, add ...Slide) error {
	if len(d.Slides)+len(add) > MaxSlides {
		return argErr("a Slides tab holds at most %d slides; this one has %d", MaxSlides, len(d.Slides))
	}
	for i := range add {
		if add[i].ID == "" {
			add[i].ID = newID("slide")
		}
		if len(add[i].Title)+len(add[i].Body) > MaxSlideBytes {
			return argErr("a slide may be at most %d bytes", MaxSlideBytes)
		}
	}
	if pos < 0 || pos > len(d.Slides) {
		pos = len(d.Slides)
	}
	d.Slides = append(d.Slides[:pos], append(add, d.Slides[pos:]...)...)
	return nil
}
