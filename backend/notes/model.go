package notes

import "time"

// Tab kinds.
const (
	KindText   = "text"   // Note/Markdown text
	KindSheet  = "sheet"  // grid of cells
	KindSlides = "slides" // ordered slides
	KindFile   = "file"   // file attachment (read-only to tools)
	KindSource = "source" // source attachment (add_note_source)
)

// Limits stated in tool descriptions and enforced on every write.
const (
	MaxTextBytes      = 1 << 20 // a text tab, a source's content, an article body
	MaxTitleChars     = 200
	MaxRangeRows      = 100 // read_sheet_range / sheet_set_range
	MaxRangeCols      = 100
	MaxSheetRows      = 10000
	MaxSheetCols      = 1000
	MaxCellBytes      = 32 << 10
	MaxSlides         = 500
	MaxSlideBytes     = 64 << 10
	MaxRecordFields   = 100
	MaxFieldBytes     = 64 << 10
	MinKeyChars       = 8
	MaxKeyChars       = 128
	MaxTabDataBytes   = 4 << 20
	MaxTabsPerNote    = 200
	DefaultListLimit  = 50
	MaxListLimit      = 200
	defaultSearchHits = 10
)

// Workspace is the top-level container; every item belongs to exactly one.
type Workspace struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Project groups Notes, knowledge bases and Record channels; Connected
// agents get access per project.
type Project struct {
	ID        string `json:"id"`
	Workspace string `json:"workspace_id"`
	Name      string `json:"name"`
}

// NoteInfo is a Note without its tab contents.
type NoteInfo struct {
	ID        string    `json:"note_id"`
	Workspace string    `json:"workspace_id"`
	Project   string    `json:"project_id"`
	Title     string    `json:"title"`
	Version   int64     `json:"version"`
	UpdatedAt time.Time `json:"updated_at" ts_type:"string"`
}

// TabInfo is a tab without its content.
type TabInfo struct {
	ID        string    `json:"tab_id"`
	Kind      string    `json:"kind"`
	Title     string    `json:"title"`
	Position  int       `json:"position"`
	Version   int64     `json:"tab_version"`
	UpdatedAt time.Time `json:"updated_at" ts_type:"string"`
}

// Tab is a tab with its content; exactly one of the content fields is set,
// by Kind.
type Tab struct {
	TabInfo
	Text       *string     `json:"text,omitempty"`
	Sheet      *SheetData  `json:"sheet,omitempty"`
	Slides     *SlidesData `json:"slides,omitempty"`
	Attachment *Attachment `json:"attachment,omitempty"`
}

// Note is a Note with all its tabs (the person's editor loads this).
type Note struct {
	NoteInfo
	Tabs []Tab `json:"tabs"`
}

// SheetData is a Sheet tab: one or more grids of JSON cell values
// (string, number, bool or null), row-major, ragged rows allowed.
type SheetData struct {
	Sheets []Sheet `json:"sheets"`
}

// Sheet is one grid of a Sheet tab.
type Sheet struct {
	ID    string  `json:"id"`
	Name  string  `json:"name"`
	Cells [][]any `json:"cells"`
}

// SlidesData is a Slides tab.
type SlidesData struct {
	Slides []Slide `json:"slides"`
}

// Slide is one slide: a title and Markdown bullet text.
type Slide struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Body  string `json:"body"`
}

// Attachment is a File or Source tab's content. Tools can read it but not
// edit it; add_note_source creates Sources.
type Attachment struct {
	Name     string `json:"name"`
	URL      string `json:"url,omitempty"`
	MimeType string `json:"mime_type,omitempty"`
	Size     int64  `json:"size"`
	Text     string `json:"text,omitempty"` // text content (≤ MaxTextBytes)
}

// KnowledgeBase is a set of articles.
type KnowledgeBase struct {
	ID        string `json:"knowledge_base_id"`
	Workspace string `json:"workspace_id"`
	Project   string `json:"project_id"`
	Name      string `json:"name"`
}

// Article is a knowledge base article.
type Article struct {
	ID            string    `json:"article_id"`
	KnowledgeBase string    `json:"knowledge_base_id"`
	Title         string    `json:"title"`
	Body          string    `json:"body,omitempty"`
	Version       int64     `json:"version"`
	UpdatedAt     time.Time `json:"updated_at" ts_type:"string"`
}

// RecordChannel is a list of Record items (issues, tasks, leads …).
type RecordChannel struct {
	ID        string `json:"record_channel_id"`
	Workspace string `json:"workspace_id"`
	Project   string `json:"project_id"`
	Name      string `json:"name"`
}

// RecordItem is one Record: a title, a status and free-form fields.
type RecordItem struct {
	ID        string         `json:"item_id"`
	Channel   string         `json:"record_channel_id"`
	Title     string         `json:"title"`
	Status    string         `json:"status"`
	Fields    map[string]any `json:"fields"`
	Version   int64          `json:"version"`
	UpdatedAt time.Time      `json:"updated_at" ts_type:"string"`
}
