#!/usr/bin/env node
// A stand-in for GitHub's `gh api`, for the CI recipe's own test: a PR's comments are kept in the
// JSON file $FAKE_GH_STATE and every call is logged to $FAKE_GH_LOG. It answers the three calls the
// recipe makes: list comments (through jq, as gh's --jq), create one, and PATCH one by id.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');

const args = process.argv.slice(2);
fs.appendFileSync(process.env.FAKE_GH_LOG, `${JSON.stringify(args)}\n`);
if (args[0] !== 'api') process.exit(2);
const state = process.env.FAKE_GH_STATE;
const comments = fs.existsSync(state) ? JSON.parse(fs.readFileSync(state, 'utf8')) : [];
const argAfter = (flag) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : null);
const route = args.find((a) => a.startsWith('repos/'));
const field = argAfter('-F');
const body = field ? fs.readFileSync(field.replace(/^body=@/, ''), 'utf8') : null;
const method = argAfter('-X') ?? (field ? 'POST' : 'GET');
if (method === 'GET') {
  process.stdout.write(execFileSync('jq', ['-r', argAfter('--jq') ?? '.'], { input: JSON.stringify(comments) }));
} else if (method === 'POST') {
  comments.push({ id: 1000 + comments.length, body });
} else if (method === 'PATCH') {
  const comment = comments.find((c) => c.id === Number(route.split('/').pop()));
  if (!comment) process.exit(1);
  comment.body = body;
}
fs.writeFileSync(state, JSON.stringify(comments));
