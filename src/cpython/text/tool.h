/* The command line's engine helpers (tool.c, tool_lines.c). */
#ifndef JJ_TEXT_TOOL_H
#define JJ_TEXT_TOOL_H

/* Deeper documents are json's to judge (its recursion decides what happens): the CLI's
 * object path takes them. */
#define JJ_TOOL_MAX_DEPTH 200
/* Longer ints may pass sys.get_int_max_str_digits() (never below 640): json decides. */
#define JJ_TOOL_MAX_INT_DIGITS 640

#endif
