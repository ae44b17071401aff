"""The market (ITM-MARKET, ITM-DAY, ITM-FAKE sellers): places and market days, today's stock,
prices, sellers and fakes, and the ``MARKET`` block the Game Master reads."""
