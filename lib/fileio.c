/* Placeholder: filled in by the fileio work. */
typedef int bf_placeholder_fileio;
