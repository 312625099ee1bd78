"""The players' view, served from inside the app: a read-only page of the
fight for the phones, tablets or TV at the table (issue 12).  Nothing here
imports aiohttp or segno at import time; they load when sharing starts."""
