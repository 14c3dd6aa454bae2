"""Slumbot's HTTP API (slumbot.com): the client that plays our strategies against it, and a
local server of the same API with one of our strategies behind it.

* :mod:`.connection`: the requests, one at a time, retried only when that is safe;
* :mod:`.match`: a match of N hands into an ACPC log, resumable from that log;
* :mod:`.server`: the API on our engine, over HTTP (standard library);
* :mod:`.check`: the same deals through the API and through our dealer, compared hand by hand.

The translation between the API's strings and our engine is in :mod:`pokerbot.protocol.slumbot`.
"""
