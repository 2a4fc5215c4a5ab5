/* Placeholder: filled in by the counting work. */
typedef int bf_placeholder_counting;
