#!/usr/bin/env python3
"""moto's DynamoDB server as the test suite runs it: the same API and the
same answers, with three changes that make it fit to serve a test suite.

1. One request at a time. moto's backend is not thread-safe: two
   TransactWriteItems at once failed inside it (HTTP 500, "dictionary
   changed size during iteration"). A lock makes every request atomic, as a
   real table's single-item and transactional writes are.
2. A failed transaction is undone item by item. moto deep-copies every
   table a transaction names, once per item of the transaction, so that it
   can put the copy back if one part fails: a 20-item transaction on a
   table holding a demo seed copied that table 20 times, about a second.
   Here only the items the transaction names are kept, and put back when
   it fails.
3. A query of the table (not of an index) reads its own partition. moto
   sorts every item of the table and filters them by partition key on each
   query, so a query cost grew with the table; the partition's items,
   sorted the same way, give the same answer.

Pinned to the moto version the install script installs: the changes reach
into moto's internals, so another version must be checked again first.

Usage: moto-server.py -H 127.0.0.1 -p PORT   (moto_server's own options)
"""

import copy
import sys
import threading

import moto
from moto.dynamodb.models import DynamoDBBackend
from moto.dynamodb.models.table import Table
from moto.dynamodb.responses import DynamoHandler
from moto.server import main

PINNED = "5.2.5"
if moto.__version__ != PINNED:
    sys.exit(f"moto {moto.__version__} found, {PINNED} expected: check the changes in {__file__} against it first")

_one_at_a_time = threading.RLock()
_call_action = DynamoHandler.call_action


def call_action(self):
    with _one_at_a_time:
        return _call_action(self)


DynamoHandler.call_action = call_action

# While a transaction runs, moto's copy of a table for its undo is the table
# itself (no copy; putting it back changes nothing); the items it names are
# kept and restored instead.
_in_transaction = threading.local()


def table_deepcopy(self, memo):
    if getattr(_in_transaction, "active", False):
        return self
    result = self.__class__.__new__(self.__class__)
    memo[id(self)] = result
    for name, value in self.__dict__.items():
        setattr(result, name, copy.deepcopy(value, memo))
    return result


Table.__deepcopy__ = table_deepcopy
_transact_write_items = DynamoDBBackend.transact_write_items


def named_items(backend, transact_items):
    """(table, partition key, sort key, a copy of the item or None) of every
    item a transaction names, as they are before it runs."""
    kept = []
    for entry in transact_items:
        if len(entry) != 1:
            continue  # moto refuses it before writing anything
        op_type, op = next(iter(entry.items()))
        table = backend.tables.get(op.get("TableName"))
        if table is None:
            continue
        try:
            if op_type == "Put":
                attrs = op["Item"]
                key = {table.hash_key_attr: attrs[table.hash_key_attr]}
                if table.range_key_attr is not None:
                    key[table.range_key_attr] = attrs[table.range_key_attr]
            else:
                key = op["Key"]
            hash_key, range_key = backend.get_keys_value(table, key)
        except Exception:
            continue  # a malformed key: moto refuses it before writing anything
        kept.append((table, hash_key, range_key, copy.deepcopy(table.get_item(hash_key, range_key))))
    return kept


def put_back(kept):
    # Newest first, so an item named twice ends as it was before the first.
    for table, hash_key, range_key, item in reversed(kept):
        if table.range_key_attr is not None:
            partition = table.items[hash_key]
            if item is None:
                partition.pop(range_key, None)
                if not partition:
                    table.items.pop(hash_key, None)
            else:
                partition[range_key] = item
        elif item is None:
            table.items.pop(hash_key, None)
        else:
            table.items[hash_key] = item


def transact_write_items(self, transact_items):
    kept = named_items(self, transact_items)
    _in_transaction.active = True
    try:
        return _transact_write_items(self, transact_items)
    except BaseException:
        put_back(kept)
        raise
    finally:
        _in_transaction.active = False


DynamoDBBackend.transact_write_items = transact_write_items
_query = Table.query


def query(self, hash_key, *args, **kwargs):
    index_name = kwargs.get("index_name")
    if index_name is None and len(args) > 6:
        index_name = args[6]  # after range_comparison ... projection_expressions
    if index_name or hash_key is None:
        return _query(self, hash_key, *args, **kwargs)
    partition = self.items.get(hash_key)
    if partition is None:
        items = []
    elif self.range_key_attr:
        items = sorted(partition.values(), key=lambda item: item.range_key)
    else:
        items = [partition]
    # The instance's own all_items hides the class's for this one query
    # (requests run one at a time).
    self.all_items = lambda: items
    try:
        return _query(self, hash_key, *args, **kwargs)
    finally:
        del self.all_items


Table.query = query

if __name__ == "__main__":
    main()
