/* render/tmpl.h: the compiled form of a template, shared by the files of render/ */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_RENDER_TMPL_H
#define TURNPOST_RENDER_TMPL_H

#include <stddef.h>

#include "util/err.h"

/*
 * A template compiles to a flat array of nodes. A section's body is the
 * nodes between it and its `end`, so rendering is a walk over index ranges
 * and the compiled form is never written to after compilation (which is
 * what makes a render_set safe to share between threads).
 */
enum tmpl_op {
	TMPL_TEXT,      /* literal bytes */
	TMPL_INDENT,    /* a line starts here: emit the current partial indentation */
	TMPL_VAR,       /* {{name}}: escaped */
	TMPL_RAW,       /* {{{name}}} or {{& name}} */
	TMPL_SECTION,   /* {{#name}} ... {{/name}} */
	TMPL_INVERTED,  /* {{^name}} ... {{/name}} */
	TMPL_PARTIAL    /* {{> name}} */
};

struct tmpl_node {
	enum tmpl_op op;
	unsigned line;       /* 1-based source line of the tag, for messages */
	size_t end;          /* SECTION, INVERTED: index of the first node after the body */
	const char *text;    /* TEXT: bytes in tmpl.src; PARTIAL: its standalone indentation */
	size_t len;
	int standalone;      /* PARTIAL: alone on its line, so its lines get indented */
	char *name;          /* the name as written ("a.b", ".", "footer"); owned */
	char *parts;         /* VAR..INVERTED: the name split at dots, NUL-separated; owned */
	unsigned nparts;     /* 0 for the implicit iterator "." */
};

struct tmpl {
	char *name;          /* owned */
	char *src;           /* owned copy of the source; TEXT nodes point into it */
	size_t srclen;
	struct tmpl_node *nodes;
	size_t nnodes;
	size_t alloc;
};

/*
 * Compile `len` bytes of `text` (copied) into *out (new; free with
 * render__tmpl_free). `name` is used in error messages and kept as
 * (*out)->name. Returns 0, ERR_INPUT with "name:line: what" or ERR_NOMEM.
 */
int render__compile(const char *name, const char *text, size_t len, struct tmpl **out,
		    struct err *err);

/* Free a compiled template. Accepts NULL. */
void render__tmpl_free(struct tmpl *t);

#endif
