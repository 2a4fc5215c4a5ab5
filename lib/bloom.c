/* Placeholder: filled in by the bloom work. */
typedef int bf_placeholder_bloom;
