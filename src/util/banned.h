/* util/banned.h: functions we never call, turned into compile errors */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_UTIL_BANNED_H
#define TURNPOST_UTIL_BANNED_H

/*
 * Included as the last #include of every project .c file, after the system
 * headers (whose declarations these macros would otherwise break). Use
 * struct buf, snprintf or memcpy with a known length instead.
 */
#define BANNED(func) sorry_##func##_is_a_banned_function

#undef strcpy
#define strcpy(x, y) BANNED(strcpy)
#undef strcat
#define strcat(x, y) BANNED(strcat)
#undef strncpy
#define strncpy(x, y, n) BANNED(strncpy)
#undef strncat
#define strncat(x, y, n) BANNED(strncat)
#undef sprintf
#define sprintf(...) BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) BANNED(vsprintf)
#undef strtok
#define strtok(x, y) BANNED(strtok)
#undef gets
#define gets(x) BANNED(gets)
#undef gmtime
#define gmtime(t) BANNED(gmtime)
#undef localtime
#define localtime(t) BANNED(localtime)
#undef ctime
#define ctime(t) BANNED(ctime)
#undef asctime
#define asctime(t) BANNED(asctime)
#undef atoi
#define atoi(s) BANNED(atoi)

#endif
