/** Query as Apollo's composition writes it for the native routers: its directives on lines of their own. */
export const COMPOSED_QUERY = [
  'type Query',
  '  @join__type(graph: ACCOUNTS)',
  '  @join__type(graph: PRODUCTS)',
  '{',
  '  me: User @join__field(graph: ACCOUNTS)',
  '}',
];
