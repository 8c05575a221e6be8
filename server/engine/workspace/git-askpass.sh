#!/bin/sh
# Git's GIT_ASKPASS for a push: answers its prompts from the environment the server gave this one
# git process, so a remote's credential is never in an argv, a URL, a config file or a log.
case "$1" in
  Username*) printf '%s\n' "$SHADOWBOX_GIT_USERNAME" ;;
  *) printf '%s\n' "$SHADOWBOX_GIT_PASSWORD" ;;
esac
