/* Placeholder: filled in by the filter work. */
typedef int bf_placeholder_filter;
