/* Placeholder: filled in by the cuckoo work. */
typedef int bf_placeholder_cuckoo;
