/* util/embed.h: text files compiled into the binaries (migrations, templates) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_UTIL_EMBED_H
#define TURNPOST_UTIL_EMBED_H

struct embed_file {
	const char *name; /* base name, e.g. "001_init.sql" */
	const char *text;
};

/* The schema migrations in sql/, sorted by name, terminated by {NULL, NULL}. */
extern const struct embed_file embed_sql[];
/* The same migrations in PostgreSQL's words (sql/pg/), with the same names. */
extern const struct embed_file embed_sql_pg[];
/* The web page templates in templates/web/ ("home.mustache", ...) and static files in static/. */
extern const struct embed_file embed_pages[];
extern const struct embed_file embed_static[];

#endif
