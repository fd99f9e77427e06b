import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';

export const USER_COUNT = 10;

interface User { id: string; name: string; username: string; birthDate: string }

const users: User[] = Array.from({ length: USER_COUNT }, (_, i) => ({
  id: String(i + 1),
  name: `User Number ${i + 1}`,
  username: `@user${i + 1}`,
  birthDate: `19${70 + i}-0${(i % 9) + 1}-1${i % 10}`,
}));
const usersById = new Map(users.map((u) => [u.id, u]));

const typeDefs = parse(`
  type Query {
    me: User
    user(id: ID!): User
    users: [User]
  }
  type User @key(fields: "id") {
    id: ID!
    name: String
    username: String
    birthDate: String
  }
`);

export const schema = buildSubgraphSchema({
  typeDefs,
  resolvers: {
    Query: {
      me: () => users[0],
      user: (_: unknown, { id }: { id: string }) => usersById.get(id) ?? null,
      users: () => users,
    },
    User: {
      __resolveReference: (ref: { id: string }) => usersById.get(ref.id) ?? null,
    },
  } as never,
});
