/* load_json.c - a JSON stream: a file whose first non-space byte is '{'
 * read as kubectl reads it, one object per JSON value ({...}{...}, or one
 * a line as `jq -c '.items[]'` writes them).
 *
 * kubectl (apimachinery's util/yaml YAMLOrJSONDecoder, as cli-runtime's
 * StreamVisitor uses it) looks at the first 4096 bytes: when the first
 * non-space one is '{' it decodes JSON values one after another
 * (encoding/json's Decoder: only JSON whitespace between them). When the
 * second value is no JSON (a `---`, a comment, YAML), it reads the rest
 * after the first value as YAML documents; after two values, anything but
 * a JSON value is an error. A `null` value is skipped, any other value
 * that is no object is an error.
 *
 * libyaml reads such a file as every file, and stops at the second value:
 * a YAML stream needs `---` before it ("did not find expected <document
 * start>"). Only then, in that error's path, is the parser let go on as
 * if the value started a document of its own (libyaml's implicit document
 * start, the one a stream's first document has), and so for every value
 * after: the values are read by the same parser, with the file's lines
 * and columns, and a YAML file or a single JSON object costs nothing
 * more than the one look at the input's first bytes. A `---` after two
 * values is refused, as kubectl refuses it. What libyaml reads and JSON
 * does not (comments between values, YAML's flow syntax inside one) is
 * read, not refused (docs/limits.md). */
#include "loader.h"

#include <stdio.h>
#include <string.h>

/* kubectl's StreamVisitor: NewYAMLOrJSONDecoder(r, 4096) peeks this much */
#define SNIFF_BYTES 4096u

static void sniff(struct loader *L, const unsigned char *b, size_t n)
{
	struct load_json *js = &L->js;
	for (size_t i = 0; i < n && js->sniffing; i++) {
		unsigned char c = b[i];
		/* unicode.IsSpace, over ASCII */
		if (js->sniffed++ < SNIFF_BYTES && (c == ' ' || (c >= '\t' && c <= '\r')))
			continue;
		js->brace = js->sniffed <= SNIFF_BYTES && c == '{';
		js->sniffing = false;
	}
	if (!n)
		js->sniffing = false;
}

void load_json_begin(struct loader *L, FILE *f, const char *mem, size_t len)
{
	struct load_json *js = &L->js;
	memset(js, 0, sizeof(*js));
	js->f = f;
	js->sniffing = true;
	if (!f)
		sniff(L, (const unsigned char *)mem, len);
}

int load_json_read(void *data, unsigned char *buf, size_t size, size_t *size_read)
{
	struct loader *L = data;
	struct load_json *js = &L->js;
	/* libyaml's yaml_file_read_handler, and the first bytes looked at */
	*size_read = fread(buf, 1, size, js->f);
	if (js->sniffing)
		sniff(L, buf, *size_read);
	return !ferror(js->f);
}

void load_json_doc_end(struct loader *L, const yaml_event_t *e)
{
	struct load_json *js = &L->js;
	L->json_doc = false; /* the next document says what it is */
	/* the first document, a JSON value ended by nothing (no `...`) */
	js->armed = js->brace && !js->stream && !js->ndocs++ && e->data.document_end.implicit;
}

int load_json_doc_start(struct loader *L, const yaml_event_t *e)
{
	struct load_json *js = &L->js;
	js->armed = false;
	if (!js->stream || e->data.document_start.implicit)
		return 1;
	/* StreamVisitor: after two values, the JSON decoder's error */
	load_err(L, (uint32_t)e->start_mark.line + 1, (uint32_t)e->start_mark.column + 1,
		 "'---' in a JSON stream (expected only JSON values after the first two: kubectl reads a file "
		 "that starts with '{' and goes on with a second JSON value as a JSON stream)");
	L->abort_file = true;
	return 0;
}

bool load_json_continue(struct loader *L)
{
	struct load_json *js = &L->js;
	yaml_parser_t *p = &L->parser;
	if (!(js->armed || js->stream) || p->error != YAML_PARSER_ERROR || !p->problem ||
	    strcmp(p->problem, "did not find expected <document start>"))
		return false;
	/* libyaml's parser, at a document start without `---`: the value at
	 * hand (still its next token) starts an implicit document, as a
	 * stream's first one does */
	p->error = YAML_NO_ERROR;
	p->problem = NULL;
	p->context = NULL;
	p->state = YAML_PARSE_IMPLICIT_DOCUMENT_START_STATE;
	js->armed = false;
	js->stream = true;
	return true;
}

/* encoding/json's number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static bool json_number(const char *s, size_t n)
{
	size_t i = 0, d;
	if (i < n && s[i] == '-')
		i++;
	if (i < n && s[i] == '0')
		i++;
	else if (i < n && s[i] >= '1' && s[i] <= '9')
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
	else
		return false;
	if (i < n && s[i] == '.') {
		for (d = ++i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			;
		if (i == d)
			return false;
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		for (d = i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			;
		if (i == d)
			return false;
	}
	return i == n;
}

void load_json_event(struct loader *L, const yaml_event_t *e)
{
	uint32_t line = (uint32_t)e->start_mark.line + 1, col = (uint32_t)e->start_mark.column + 1;
	const char *what = NULL, *v = "";
	if (L->abort_file)
		return;
	if (e->type == YAML_ALIAS_EVENT) {
		what = "an alias";
	} else {
		v = (const char *)e->data.scalar.value;
		size_t n = e->data.scalar.length;
		if (e->data.scalar.tag || e->data.scalar.anchor)
			what = e->data.scalar.tag ? "a YAML tag" : "a YAML anchor";
		else if (e->data.scalar.style == YAML_PLAIN_SCALAR_STYLE)
			what = json_number(v, n) || (n == 4 && (!memcmp(v, "true", 4) || !memcmp(v, "null", 4))) ||
				       (n == 5 && !memcmp(v, "false", 5))
				       ? NULL
				       : "a string without double quotes";
		else if (e->data.scalar.style != YAML_DOUBLE_QUOTED_SCALAR_STYLE)
			what = "a string without double quotes";
	}
	if (!what)
		return;
	if (*v && strlen(v) <= 64)
		load_err(L, line, col, "not JSON: '%s' is %s (expected a string in double quotes, a number, "
			 "true, false or null; kubectl reads a file that starts with '{' as JSON)", v, what);
	else
		load_err(L, line, col, "not JSON: %s (expected a string in double quotes, a number, true, false "
			 "or null; kubectl reads a file that starts with '{' as JSON)", what);
	L->abort_file = true;
}
